// Mass assignment through every body, and privacy of every user object: a field the route
// does not take is refused (400 naming it) and nothing is applied; another user's object
// never shows email, bookmarks or blocked_users, and no answer ever shows a password hash.
import { call } from '../support/invoke';
import { makeUser, uniq } from '../support/factories';
import { rows, type FixtureContext } from '../support/routes';
import { expectEnvelope, expectNothingChanged, snapshot } from '../support/refusal';
import { handler as profile } from '../../functions/users/profile';
import { handler as login } from '../../functions/auth/login';
import { handler as trace } from '../../functions/logs/trace';

/** Stored or computed attributes a client must never set. */
const FORBIDDEN: Record<string, unknown> = {
  _id: '01ARZ3NDEKTSV4RRFFQ69G5FAV', id: '01ARZ3NDEKTSV4RRFFQ69G5FAV', PK: 'USER#x', SK: 'PROFILE', type: 'USER',
  email: 'mallory@example.test', emailVerified: true, passwordHash: 'scrypt$x', followers: ['x'], following: ['x'],
  bookmarks: ['x'], blocked_users: ['x'], postsCount: 1000, followersCount: 1000, followingCount: 1000, blockedCount: 1,
  createdAt: '2000-01-01T00:00:00.000Z', updatedAt: '2000-01-01T00:00:00.000Z', GSI3PK: 'POPULAR#0', isFollowing: true,
  isBlocked: true, likesCount: 5, author: 'x', role: 'admin', admin: true, scope: 'logs:read', expiresAt: 1,
};

describe.each(rows((r) => r.body !== undefined))('%s', (_key, route) => {
  let ctx: FixtureContext;
  beforeAll(async () => { ctx = { me: await makeUser(), other: await makeUser() }; });

  const taken = () => Object.keys(route.body?.properties ?? {});

  it('refuses every field it does not take, alongside a valid body, and applies nothing', async () => {
    for (const [field, value] of Object.entries(FORBIDDEN)) {
      if (taken().includes(field)) continue;
      const valid = await route.valid(ctx);
      const before = await snapshot(ctx, valid);
      const traceId = `mass-${uniq('t')}`;
      const res = await call(route.handler, route.key, {
        token: ctx.me.token, ...valid, body: { ...(valid.body as object), [field]: value }, headers: { 'X-Trace-Id': traceId },
      });
      expect({ field, status: res.status }).toEqual({ field, status: 400 });
      expectEnvelope(res, 400, 'VALIDATION_ERROR');
      expect(res.body.details).toContainEqual({ path: field, message: 'is not a known field' });
      await expectNothingChanged(ctx, before, valid, traceId);
    }
  });
});

describe('privacy', () => {
  it('another user\'s object never has email, bookmarks or blocked_users; the own one has them', async () => {
    const [a, b] = [await makeUser(), await makeUser()];
    const other = await call(profile, 'GET /users/{identifier}', { token: a.token, params: { identifier: b.username } });
    expect(other.status).toBe(200);
    for (const k of ['email', 'bookmarks', 'blocked_users', 'passwordHash']) expect(other.body.user).not.toHaveProperty(k);
    expect(other.text).not.toContain(b.email);
    const own = await call(profile, 'GET /users/{identifier}', { token: a.token, params: { identifier: a.id } });
    expect(own.body.user).toMatchObject({ email: a.email, bookmarks: [], blocked_users: [] });
  });

  it('no answer of any route, success or refusal, carries a password or its hash', async () => {
    const ctx = { me: await makeUser(), other: await makeUser() };
    for (const [, route] of rows()) {
      const valid = await route.valid(ctx);
      for (const res of [
        await call(route.handler, route.key, { token: ctx.me.token, ...valid }),
        await call(route.handler, route.key, { token: ctx.me.token, ...valid, body: { ...(valid.body as object ?? {}), password: ctx.me.password, junk: 1 } }),
      ]) {
        expect(res.text).not.toMatch(/passwordHash|scrypt|\$s0\$/i);
        expect(res.text).not.toContain(ctx.me.password);
        expect(res.text).not.toContain(ctx.other.password);
      }
    }
  });

  it('a refused login leaves no password in its trace records', async () => {
    const u = await makeUser();
    const traceId = `pw-${uniq('t')}`;
    await call(login, 'POST /auth/login', { body: { identifier: u.username, password: u.password, extra: 1 }, headers: { 'X-Trace-Id': traceId } });
    await call(login, 'POST /auth/login', { body: { identifier: u.username, password: u.password }, headers: { 'X-Trace-Id': traceId } });
    const res = await call(trace, 'GET /logs/trace/{traceId}', { token: u.token, params: { traceId } });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain(u.password);
  });
});
