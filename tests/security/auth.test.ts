// Tokens and Authorization headers against every authenticated route: each bad token is a
// 401 UNAUTHORIZED in the envelope with WWW-Authenticate: Bearer and X-Trace-Id, and the
// request changes nothing. Routes come from tests/support/routes.ts.
import { SignJWT, generateKeyPair, type JWTPayload } from 'jose';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { call } from '../support/invoke';
import { makeUser, uniq, type TestUser } from '../support/factories';
import { rows, type FixtureContext } from '../support/routes';
import { expectEnvelope, expectNothingChanged, snapshot } from '../support/refusal';
import { config } from '../../lib/config';
import { db, TABLE } from '../../lib/db/client';
import * as keys from '../../lib/keys';
import { signToken } from '../../lib/auth/tokens';
import { jwtKeys } from '../../lib/auth/keys';
import { newId } from '../../lib/ids';
import { handler as logout } from '../../functions/auth/logout';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);
// Within the service's lifetime (a longer one is a reason of its own to refuse: a row below).
const claims = (sub: string, extra: JWTPayload = {}): JWTPayload => ({ sub, iss: config.issuer, aud: config.audience, iat: now(), exp: now() + Math.min(600, config.tokenTtlSeconds), ...extra });
// The stage's current key and its kid: a bad token below fails for its own reason, not for a missing kid.
let current: { kid: string; key: Uint8Array };
beforeAll(async () => {
  const set = await jwtKeys.get();
  current = { kid: set.current, key: set.signingKey };
});
const hs = (payload: JWTPayload, key: Uint8Array = current.key, alg = 'HS256', kid: string | null = current.kid) =>
  new SignJWT(payload).setProtectedHeader({ alg, typ: 'JWT', ...(kid === null ? {} : { kid }) }).sign(key);
const without = (p: JWTPayload, k: keyof JWTPayload) => { const c = { ...p }; delete c[k]; return c; };

/** Bad tokens for user `u`, each with the reason it must fail (and only that: each names `u`'s live session). */
async function badTokens(u: TestUser): Promise<[string, string][]> {
  const { privateKey } = await generateKeyPair('RS256');
  const good = await signToken({ userId: u.id, sessionId: u.sessionId, epoch: 0 });
  const [h, , s] = good.split('.');
  const mine = (extra: JWTPayload = {}) => claims(u.id, { sid: u.sessionId, sep: 0, ...extra });
  return [
    ['alg none', `${b64({ alg: 'none', typ: 'JWT' })}.${b64(mine())}.`],
    ['alg none with a signature', `${b64({ alg: 'none' })}.${b64(mine())}.${s}`],
    ['HS256 with another key', await hs(mine(), new TextEncoder().encode('another-secret-of-at-least-32-characters!'))],
    ['HS512 with the right key', await hs(mine(), current.key, 'HS512')],
    ['the right key but no kid', await hs(mine(), current.key, 'HS256', null)],
    ['the right key under a kid the key set does not hold', await hs(mine(), current.key, 'HS256', 'retired-1')],
    ['the right key under an empty kid', await hs(mine(), current.key, 'HS256', '')],
    ['RS256', await new SignJWT(mine()).setProtectedHeader({ alg: 'RS256' }).sign(privateKey)],
    ['a changed payload', `${h}.${b64({ ...mine(), scope: 'logs:read' })}.${s}`],
    ['expired', await hs(mine({ iat: now() - 7200, exp: now() - 60 }))],
    ['not valid yet (nbf in the future)', await hs(mine({ nbf: now() + 3600 }))],
    ['no exp', await hs(without(mine(), 'exp'))],
    ['no iat', await hs(without(mine(), 'iat'))],
    ['no sub', await hs(without(mine(), 'sub'))],
    ['an empty sub', await hs({ ...mine(), sub: '' })],
    ['no sid', await hs(without(mine(), 'sid'))],
    ['a sid that is not an id', await hs(mine({ sid: 'not-a-session' }))],
    ['no sep', await hs(without(mine(), 'sep' as keyof JWTPayload))],
    ['a sep that is not a whole number', await hs(mine({ sep: '0' }))],
    ['a negative sep', await hs(mine({ sep: -1 }))],
    ['a sep of an epoch the account has not reached', await hs(mine({ sep: 1_000 }))],
    ['a lower-case sub (the same user item, another id to every block edge)', await hs({ ...mine(), sub: u.id.toLowerCase() })],
    ['a sid of no session of the user (made up)', await hs(mine({ sid: newId() }))],
    ['a lower-case sid', await hs(mine({ sid: u.sessionId.toLowerCase() }))],
    ['an iat in the future', await hs(mine({ iat: now() + 120, exp: now() + 240 }))],
    ['a lifetime beyond TOKEN_TTL_SECONDS', await hs(mine({ exp: now() + config.tokenTtlSeconds + 60 }))],
    ['an exp ten years away', await hs(mine({ exp: now() + 10 * 365 * 86_400 }))],
    ['a wrong issuer', await hs(mine({ iss: 'someone-else' }))],
    ['a wrong audience', await hs(mine({ aud: 'another-app' }))],
    ['a truncated token', good.slice(0, -5)],
    ['two segments', `${h}.${b64(mine())}`],
  ];
}

it('accepts the claims the bad tokens are made from, with the right key: each row fails for its own reason', async () => {
  const u = await makeUser();
  const res = await call(logout, 'POST /auth/logout', { token: await hs(claims(u.id, { sid: u.sessionId, sep: 0 })) });
  expect(res.status).toBe(200);
});

const BAD_HEADERS: [string, string | undefined][] = [
  ['no Authorization header', undefined],
  ['an empty header', ''],
  ['"Bearer" alone', 'Bearer'],
  ['"Bearer " and spaces', 'Bearer    '],
  ['Basic credentials', 'Basic dXNlcjpwYXNz'],
  ['a token without scheme', 'eyJhbGciOiJIUzI1NiJ9.e30.x'],
  ['two tokens', 'Bearer a.b.c d.e.f'],
  ['garbage', 'Bearer !!!'],
  ['a token of 10,000 characters', `Bearer ${'a'.repeat(10_000)}`],
  ['a control character', 'Bearer a.b.c\u0000'],
];

describe.each(rows((r) => r.auth))('%s', (_key, route) => {
  let ctx: FixtureContext;
  let tokens: [string, string][];
  beforeAll(async () => {
    ctx = { me: await makeUser(), other: await makeUser() };
    tokens = await badTokens(ctx.me);
  });

  it('answers with a valid token (the fixture is good, so the refusals below are about the token)', async () => {
    const valid = await route.valid(ctx);
    const res = await call(route.handler, route.key, { token: ctx.me.token, ...valid });
    expect(res.status).toBeLessThan(300);
  });

  it('refuses every bad token with 401 UNAUTHORIZED, WWW-Authenticate and X-Trace-Id, changing nothing', async () => {
    for (const [why, token] of tokens) {
      const valid = await route.valid(ctx);
      const before = await snapshot(ctx, valid);
      const traceId = `sec-${uniq('t')}`;
      const res = await call(route.handler, route.key, { ...valid, token: undefined, headers: { authorization: `Bearer ${token}`, 'X-Trace-Id': traceId } });
      expect({ why, status: res.status }).toEqual({ why, status: 401 });
      expectEnvelope(res, 401, 'UNAUTHORIZED');
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.headers['x-trace-id']).toBe(traceId);
      await expectNothingChanged(ctx, before, valid, traceId);
    }
  });

  it('refuses malformed Authorization headers the same way', async () => {
    for (const [why, header] of BAD_HEADERS) {
      const valid = await route.valid(ctx);
      const before = await snapshot(ctx, valid);
      const res = await call(route.handler, route.key, { ...valid, token: undefined, headers: header === undefined ? {} : { authorization: header } });
      expect({ why, status: res.status }).toEqual({ why, status: 401 });
      expectEnvelope(res, 401, 'UNAUTHORIZED');
      expect(res.headers['www-authenticate']).toBe('Bearer');
      await expectNothingChanged(ctx, before, valid);
    }
  });

  it('refuses at once every access token of an ended session (logout), changing nothing', async () => {
    const ghost = await makeUser();
    const valid = await route.valid({ me: ghost, other: ctx.other });
    const token = valid.token ?? ghost.token;
    const out = await call(logout, 'POST /auth/logout', { token });
    expect(out.status).toBe(200);
    const before = await snapshot({ me: ghost, other: ctx.other }, valid);
    const traceId = `sec-${uniq('t')}`;
    const res = await call(route.handler, route.key, { ...valid, token, headers: { 'X-Trace-Id': traceId } });
    expectEnvelope(res, 401, 'UNAUTHORIZED');
    expect(res.headers['www-authenticate']).toBe('Bearer');
    await expectNothingChanged({ me: ghost, other: ctx.other }, before, valid, traceId);
  });

  it('refuses the token of a deleted user', async () => {
    const ghost = await makeUser();
    const valid = await route.valid({ me: ghost, other: ctx.other });
    await db.send(new DeleteCommand({ TableName: TABLE, Key: keys.user(valid.owner ?? ghost.id) }));
    const res = await call(route.handler, route.key, { ...valid, token: valid.token ?? ghost.token });
    expectEnvelope(res, 401, 'UNAUTHORIZED');
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });
});

/** A path parameter that names a target: a user, a post, a comment, a session, a report... */
const TARGET_PARAM = /\{(identifier|\w+_id)\}/;

describe.each(rows((r) => r.auth && TARGET_PARAM.test(r.key)))('%s', (_key, route) => {
  it('answers a deleted user 401 before saying anything of the target (even one that does not exist)', async () => {
    const ghost = await makeUser();
    const valid = await route.valid({ me: ghost, other: await makeUser() });
    const targets = Object.keys(valid.params ?? {}).filter((k) => k === 'identifier' || k.endsWith('_id'));
    expect(targets.length).toBeGreaterThan(0);
    const params = { ...valid.params, ...Object.fromEntries(targets.map((k) => [k, newId()])) };
    await db.send(new DeleteCommand({ TableName: TABLE, Key: keys.user(valid.owner ?? ghost.id) }));
    const res = await call(route.handler, route.key, { ...valid, params, token: valid.token ?? ghost.token });
    expectEnvelope(res, 401, 'UNAUTHORIZED');
  });
});
