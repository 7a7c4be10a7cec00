// Sessions (contract section 13): tokens of a session, refresh rotation with reuse detection
// and the racing-refresh window, logout, the session list, ending one session, and the
// password change that ends every other one. Through the real handlers on DynamoDB Local.
import { SignJWT, decodeJwt } from 'jose';
import { jwtKeys } from '../../lib/auth/keys';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { call } from '../support/invoke';
import { makeUser, makeUsers, uniq, type TestUser } from '../support/factories';
import { getItem, queryAll } from '../support/db';
import { loginAgain } from '../support/routes';
import { handler as deleteMe } from '../../functions/users/delete';
import { handler as login } from '../../functions/auth/login';
import { handler as refresh } from '../../functions/auth/refresh';
import { handler as logout } from '../../functions/auth/logout';
import { handler as sessions } from '../../functions/auth/sessions';
import { handler as endOne } from '../../functions/auth/end-session';
import { handler as password } from '../../functions/auth/password';
import { handler as me } from '../../functions/users/me';
import { handler as traceLogs } from '../../functions/logs/trace';
import { db, TABLE } from '../../lib/db/client';
import * as keys from '../../lib/keys';
import { config } from '../../lib/config';
import { ENDED_MAX, REFRESH_GRACE_MS, endedKeepMs } from '../../lib/auth/sessions';
import { MAX_FAILURES } from '../../lib/auth/login-guard';

const whoAmI = (token: string) => call(me, 'GET /users/me', { token });
const doRefresh = (refreshToken: string, headers: Record<string, string> = {}) => call(refresh, 'POST /auth/refresh', { body: { refreshToken }, headers });
const sidOf = (token: string) => String(decodeJwt(token).sid);
const sessionItem = (u: TestUser, sid: string) => getItem(keys.session(u.id, sid));
// The module object itself (not an import namespace copy), whose hashRaw lib/users/password.ts calls.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const argon2: typeof import('@node-rs/argon2') = require('@node-rs/argon2');
const list = (token: string) => call(sessions, 'GET /auth/sessions', { token });

describe('tokens of a session', () => {
  it('register and login start a session: a 15-minute access token with sid, a 256-bit refresh token stored only as a hash', async () => {
    const u = await makeUser();
    const claims = decodeJwt(u.token);
    expect(claims.sid).toBe(u.sessionId);
    expect(config.tokenTtlSeconds).toBe(900);
    expect(claims.exp! - claims.iat!).toBe(900);
    const l = await call(login, 'POST /auth/login', { body: { identifier: u.username, password: u.password }, headers: { 'User-Agent': 'Phone/1.0' } });
    expect(l.status).toBe(200);
    expect(l.body).toMatchObject({ token: expect.any(String), refreshToken: expect.any(String), expiresIn: 900 });
    expect(sidOf(l.body.token)).not.toBe(u.sessionId);
    // 256 random bits: 43 base64url characters after the two ids.
    expect(l.body.refreshToken.split('.').pop()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const item = await sessionItem(u, sidOf(l.body.token));
    expect(item).toMatchObject({ userId: u.id, userAgent: 'Phone/1.0', tokenHash: expect.any(String) });
    expect(JSON.stringify(item)).not.toContain(l.body.refreshToken.split('.').pop());
    // It ends SESSION_TTL_DAYS after its start, through the table's TTL.
    expect(item!.expiresAt).toBeGreaterThan(Date.now() / 1000 + config.sessionTtlDays * 86_400 - 60);
  });

  it('refuses a session past its expiresAt even before the TTL deletes it', async () => {
    const u = await makeUser();
    await db.send(new UpdateCommand({ TableName: TABLE, Key: keys.session(u.id, u.sessionId), UpdateExpression: 'SET expiresAt = :past', ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 } }));
    expect((await doRefresh(u.refreshToken)).status).toBe(401);
    // An access token is signed at a login or a refresh, each of which moves the session's expiry
    // SESSION_TTL_DAYS ahead: it outlives its session only when signed longer ago than that (a
    // token lifetime longer than a session's), and is then refused.
    const now = Math.floor(Date.now() / 1000);
    const v = await makeUser();
    const signed = async (iat: number) => {
      const set = await jwtKeys.get();
      return new SignJWT({ sid: v.sessionId, sep: 0 }).setProtectedHeader({ alg: 'HS256', kid: set.current }).setSubject(v.id)
        .setIssuer(config.issuer).setAudience(config.audience).setIssuedAt(iat).setExpirationTime(now + 600).sign(set.signingKey);
    };
    const ttl = Math.round(config.sessionTtlDays * 86_400);
    // Such a lifetime, set for this test (a token living longer than TOKEN_TTL_SECONDS is refused
    // for that alone: tests/security/auth.test.ts).
    const lifetime = config.tokenTtlSeconds;
    config.tokenTtlSeconds = ttl + 3_600;
    try {
      expect((await whoAmI(await signed(now - ttl + 60))).status).toBe(200);
      expect((await whoAmI(await signed(now - ttl - 1))).status).toBe(401);
    } finally {
      config.tokenTtlSeconds = lifetime;
    }
  });
});

describe('POST /auth/refresh', () => {
  it('rotates: a new pair of the same session, the old refresh token spent; lastUsedAt and the expiry move', async () => {
    const u = await makeUser();
    const before = await sessionItem(u, u.sessionId);
    const r = await doRefresh(u.refreshToken);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['expiresIn', 'refreshToken', 'success', 'token']);
    expect(sidOf(r.body.token)).toBe(u.sessionId);
    expect(r.body.refreshToken).not.toBe(u.refreshToken);
    expect((await whoAmI(r.body.token)).status).toBe(200);
    const after = await sessionItem(u, u.sessionId);
    expect(after!.lastUsedAt > before!.lastUsedAt).toBe(true);
    expect(after!.expiresAt).toBeGreaterThanOrEqual(before!.expiresAt);
    // The new one works once more.
    expect((await doRefresh(r.body.refreshToken)).status).toBe(200);
  });

  it('a stolen refresh token replayed after its successor was used ends the whole session', async () => {
    const u = await makeUser();
    const first = await doRefresh(u.refreshToken);
    const second = await doRefresh(first.body.refreshToken);
    expect(second.status).toBe(200);
    const replay = await doRefresh(u.refreshToken);
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('UNAUTHORIZED');
    // Everything of the session is refused at once: its access tokens and its current refresh token.
    expect((await whoAmI(second.body.token)).status).toBe(401);
    expect((await whoAmI(u.token)).status).toBe(401);
    expect((await doRefresh(second.body.refreshToken)).status).toBe(401);
    expect(await sessionItem(u, u.sessionId)).toBeUndefined();
  });

  it('a spent refresh token replayed after the grace window ends the session, even if its successor is unused', async () => {
    const u = await makeUser();
    const first = await doRefresh(u.refreshToken);
    // The window is measured from the rotation's time: move it back instead of waiting.
    await db.send(new UpdateCommand({
      TableName: TABLE, Key: keys.session(u.id, u.sessionId), UpdateExpression: 'SET rotatedAt = rotatedAt - :w',
      ExpressionAttributeValues: { ':w': REFRESH_GRACE_MS + 1 },
    }));
    expect((await doRefresh(u.refreshToken)).status).toBe(401);
    expect((await doRefresh(first.body.refreshToken)).status).toBe(401);
    expect((await whoAmI(first.body.token)).status).toBe(401);
  });

  it('two refreshes racing with one token (a phone resuming twice) both succeed with the same new refresh token', async () => {
    const u = await makeUser();
    const [a, b] = await Promise.all([doRefresh(u.refreshToken), doRefresh(u.refreshToken)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.refreshToken).toBe(b.body.refreshToken);
    // Once within the window, after the race, still the same answer.
    const late = await doRefresh(u.refreshToken);
    expect(late.status).toBe(200);
    expect(late.body.refreshToken).toBe(a.body.refreshToken);
    // The window closes as soon as the new token is used: the old one is then a reuse.
    const next = await doRefresh(a.body.refreshToken);
    expect(next.status).toBe(200);
    expect((await doRefresh(u.refreshToken)).status).toBe(401);
    expect((await whoAmI(next.body.token)).status).toBe(401);
  });

  it('refuses a made-up token, one of another shape and one of no session with 401, ending nothing', async () => {
    const u = await makeUser();
    const [userId, sessionId] = u.refreshToken.split('.');
    for (const bad of ['nonsense', `${userId}.${sessionId}`, `${userId}.01J00000000000000000000000.${'A'.repeat(43)}`, `${u.refreshToken}x`]) {
      const res = await doRefresh(bad);
      expect({ bad, status: res.status, code: res.body.code }).toEqual({ bad, status: 401, code: 'UNAUTHORIZED' });
    }
    expect((await whoAmI(u.token)).status).toBe(200);
  });

  it('gives a session an id nobody can derive from its user\'s public id: a made-up secret for a guessed session ends nothing', async () => {
    // Registration makes the user's id and its session's in one request, mostly in one
    // millisecond; ids of one millisecond used to count up from each other (lib/ids.ts), so the
    // session was the public user id plus one or two, and a refresh token naming it with any
    // secret ended it (a reuse, ARCHITECTURE "Decisions").
    const B32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    const plus = (id: string, k: number) => {
      let n = 0n;
      for (const c of id.slice(10)) n = n * 32n + BigInt(B32.indexOf(c));
      n += BigInt(k);
      let out = '';
      for (let i = 0; i < 16; i++) { out = B32[Number(n % 32n)] + out; n /= 32n; }
      return id.slice(0, 10) + out;
    };
    const users = await makeUsers(8);
    for (const u of users) {
      for (let k = 1; k <= 4; k++) {
        const guess = plus(u.id, k);
        expect(guess).not.toBe(u.sessionId);
        expect((await doRefresh(`${u.id}.${guess}.${'A'.repeat(43)}`)).status).toBe(401);
      }
    }
    for (const u of users) {
      expect((await whoAmI(u.token)).status).toBe(200);
      expect((await doRefresh(u.refreshToken)).status).toBe(200);
    }
  });

  it('refuses the refresh token of a session ended by logout', async () => {
    const u = await makeUser();
    const out = await call(logout, 'POST /auth/logout', { token: u.token });
    expect(out.status).toBe(200);
    expect(out.body.message).toEqual(expect.any(String));
    expect((await doRefresh(u.refreshToken)).status).toBe(401);
    expect((await whoAmI(u.token)).status).toBe(401);
    expect((await call(logout, 'POST /auth/logout', { token: u.token })).status).toBe(401);
  });

  it('writes its trace record with the refresh token redacted', async () => {
    const u = await makeUser();
    const traceId = `rf-${uniq('t')}`;
    const r = await doRefresh(u.refreshToken, { 'X-Trace-Id': traceId });
    const logs = await call(traceLogs, 'GET /logs/trace/{traceId}', { token: r.body.token, params: { traceId } });
    expect(logs.body.data.logs.map((l: { action: { type: string } }) => l.action.type)).toEqual(['SESSION_REFRESHED']);
    expect(logs.body.data.logs[0].payload.body.refreshToken).toBe('[REDACTED]');
    expect(logs.text).not.toContain(u.refreshToken);
    expect(logs.text).not.toContain(r.body.refreshToken);
  });
});

describe('GET /auth/sessions and DELETE /auth/sessions/{session_id}', () => {
  it('lists the live sessions newest first, marks the current one, and moves lastUsedAt only on refresh', async () => {
    const u = await makeUser();
    const phone = await call(login, 'POST /auth/login', { body: { identifier: u.username, password: u.password }, headers: { 'User-Agent': 'Phone/2.0' } });
    const res = await list(phone.body.token);
    expect(res.status).toBe(200);
    expect(res.body.sessions).toEqual([
      { _id: sidOf(phone.body.token), createdAt: expect.any(String), lastUsedAt: expect.any(String), userAgent: 'Phone/2.0', current: true },
      { _id: u.sessionId, createdAt: expect.any(String), lastUsedAt: expect.any(String), userAgent: 'jest', current: false },
    ]);
    const used = res.body.sessions[1].lastUsedAt;
    // Ordinary requests write nothing to the session.
    await whoAmI(u.token);
    expect((await list(u.token)).body.sessions[1].lastUsedAt).toBe(used);
    await doRefresh(u.refreshToken);
    const moved = (await list(u.token)).body.sessions.find((s: { _id: string }) => s._id === u.sessionId);
    expect(moved.lastUsedAt > used).toBe(true);
    expect(moved.current).toBe(true);
  });

  it('ends one of the caller\'s sessions; another user\'s session id is a 404 that ends nothing', async () => {
    const [u, v] = [await makeUser(), await makeUser()];
    const second = await loginAgain(u);
    const foreign = await call(endOne, 'DELETE /auth/sessions/{session_id}', { token: v.token, params: { session_id: second.sessionId } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('NOT_FOUND');
    expect((await whoAmI(second.token)).status).toBe(200);

    const ended = await call(endOne, 'DELETE /auth/sessions/{session_id}', { token: u.token, params: { session_id: second.sessionId } });
    expect(ended.status).toBe(200);
    expect((await whoAmI(second.token)).status).toBe(401);
    expect((await doRefresh(second.refreshToken)).status).toBe(401);
    expect((await whoAmI(u.token)).status).toBe(200);
    expect((await list(u.token)).body.sessions.map((s: { _id: string }) => s._id)).toEqual([u.sessionId]);
    const again = await call(endOne, 'DELETE /auth/sessions/{session_id}', { token: u.token, params: { session_id: second.sessionId } });
    expect(again.status).toBe(404);
  });

  it('a session item of an older epoch (left to its TTL by a password change) is ended already: 404, nothing written', async () => {
    const u = await makeUser();
    const other = await loginAgain(u);
    const stale = (await sessionItem(u, other.sessionId))!;
    expect((await call(password, 'POST /auth/password', { token: u.token, body: { currentPassword: u.password, newPassword: 'another new password' } })).status).toBe(200);
    // What a login racing the change leaves: its item, of the epoch before.
    await db.send(new PutCommand({ TableName: TABLE, Item: stale }));
    expect((await list(u.token)).body.sessions.map((s: { _id: string }) => s._id)).toEqual([u.sessionId]);
    const userBefore = await getItem(keys.user(u.id));
    const traceId = `stale-${uniq('t')}`;
    const res = await call(endOne, 'DELETE /auth/sessions/{session_id}', { token: u.token, params: { session_id: other.sessionId }, headers: { 'X-Trace-Id': traceId } });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect(await getItem(keys.user(u.id))).toEqual(userBefore);
    expect(await sessionItem(u, other.sessionId)).toEqual(stale);
    expect((await queryAll(keys.trace(traceId))).map((r) => r.level)).toEqual(['WARN']);
  });
});

describe('POST /auth/password', () => {
  it('changes the password and ends every other session; the current one stays', async () => {
    const u = await makeUser();
    const other = await loginAgain(u);
    const newPassword = 'a brand new password';
    const traceId = `pw-${uniq('t')}`;
    const res = await call(password, 'POST /auth/password', { token: u.token, body: { currentPassword: u.password, newPassword }, headers: { 'X-Trace-Id': traceId } });
    expect(res.status).toBe(200);
    expect(res.body.message).toEqual(expect.any(String));
    expect((await whoAmI(other.token)).status).toBe(401);
    expect((await doRefresh(other.refreshToken)).status).toBe(401);
    expect((await whoAmI(u.token)).status).toBe(200);
    const kept = await doRefresh(u.refreshToken);
    expect(kept.status).toBe(200);
    // The ended session's item is gone; only the current one is listed.
    expect(await sessionItem(u, other.sessionId)).toBeUndefined();
    expect((await list(kept.body.token)).body.sessions.map((s: { _id: string }) => s._id)).toEqual([u.sessionId]);
    expect((await call(login, 'POST /auth/login', { body: { identifier: u.username, password: u.password } })).status).toBe(401);
    expect((await call(login, 'POST /auth/login', { body: { identifier: u.username, password: newPassword } })).status).toBe(200);

    const logs = await call(traceLogs, 'GET /logs/trace/{traceId}', { token: kept.body.token, params: { traceId } });
    const [record] = logs.body.data.logs;
    expect(record.action.type).toBe('PASSWORD_CHANGED');
    expect(record.payload.body).toEqual({ currentPassword: '[REDACTED]', newPassword: '[REDACTED]' });
    expect(logs.text).not.toContain(u.password);
    expect(logs.text).not.toContain(newPassword);
  });

  it('a wrong currentPassword is 401 INVALID_CREDENTIALS, counts toward the login lock, and at the lock is 429', async () => {
    const u = await makeUser();
    const wrong = () => call(password, 'POST /auth/password', { token: u.token, body: { currentPassword: 'not the password', newPassword: 'whatever it is' } });
    const first = await wrong();
    expect(first.status).toBe(401);
    expect(first.body.code).toBe('INVALID_CREDENTIALS');
    expect(first.headers['www-authenticate']).toBeUndefined();
    // The session is not ended by a wrong password.
    expect((await whoAmI(u.token)).status).toBe(200);
    for (let i = 1; i < MAX_FAILURES; i++) expect((await wrong()).status).toBe(401);
    const locked = await call(password, 'POST /auth/password', { token: u.token, body: { currentPassword: u.password, newPassword: 'whatever it is' } });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('TOO_MANY_ATTEMPTS');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // The same lock as logins'.
    expect((await call(login, 'POST /auth/login', { body: { identifier: u.username, password: u.password } })).status).toBe(429);
    // Nothing changed.
    expect((await getItem(keys.user(u.id)))!.sessionEpoch).toBeUndefined();
  });

  it('ends every session racing it, also a login that read the old password (the epoch moves on the user item)', async () => {
    const u = await makeUser();
    const sessionsBefore = await loginAgain(u);
    await call(password, 'POST /auth/password', { token: u.token, body: { currentPassword: u.password, newPassword: 'another new password' } });
    // A session item written with the old epoch (a login that read the user before the change) is refused.
    const stale = { ...(await sessionItem(u, u.sessionId))!, SK: keys.session(u.id, sessionsBefore.sessionId).SK, id: sessionsBefore.sessionId, epoch: 0 };
    await db.send(new PutCommand({ TableName: TABLE, Item: stale }));
    expect((await whoAmI(sessionsBefore.token)).status).toBe(401);
    expect((await list(u.token)).body.sessions.map((s: { _id: string }) => s._id)).toEqual([u.sessionId]);
  });
});

describe('sessions ended one by one, as the user item notes them', () => {
  const userItem = async (u: TestUser) => (await getItem(keys.user(u.id)))!;

  it('a logout notes its session on the user item, and a later end drops the notes whose tokens have all expired', async () => {
    const u = await makeUser();
    const [a, b] = [await loginAgain(u), await loginAgain(u)];
    // A note written long enough ago that every token of its session has expired.
    await db.send(new UpdateCommand({
      TableName: TABLE, Key: keys.user(u.id), UpdateExpression: 'SET endedSessions = :n, endedV = :v',
      ExpressionAttributeValues: { ':n': { OLDSESSION: Date.now() - endedKeepMs() - 1 }, ':v': 7 },
    }));
    expect((await call(logout, 'POST /auth/logout', { token: a.token })).status).toBe(200);
    const item = await userItem(u);
    expect(Object.keys(item.endedSessions)).toEqual([a.sessionId]);
    expect(item.endedV).toBe(8);
    expect((await whoAmI(a.token)).status).toBe(401);
    expect((await whoAmI(b.token)).status).toBe(200);
  });

  it('ends racing one another are all noted (each write names the notes it read)', async () => {
    const u = await makeUser();
    const others = [];
    for (let i = 0; i < 6; i++) others.push(await loginAgain(u));
    const answers = await Promise.all(others.map((o) => call(logout, 'POST /auth/logout', { token: o.token })));
    expect(answers.map((r) => r.status)).toEqual(others.map(() => 200));
    expect(Object.keys((await userItem(u)).endedSessions).sort()).toEqual(others.map((o) => o.sessionId).sort());
    for (const o of others) expect((await whoAmI(o.token)).status).toBe(401);
    expect((await whoAmI(u.token)).status).toBe(200);
  });

  it('a password change clears the notes; the session it keeps keeps its tokens over two changes, the others lose theirs', async () => {
    const u = await makeUser();
    const [gone, other] = [await loginAgain(u), await loginAgain(u)];
    await call(logout, 'POST /auth/logout', { token: gone.token });
    const first = await call(password, 'POST /auth/password', { token: u.token, body: { currentPassword: u.password, newPassword: 'password number two' } });
    expect(first.status).toBe(200);
    expect(await userItem(u)).toMatchObject({ sessionEpoch: 1, keptSession: { id: u.sessionId, from: 0 } });
    expect((await userItem(u)).endedSessions).toBeUndefined();
    // The kept session's token of epoch 0 changes the password again: still good after it.
    const second = await call(password, 'POST /auth/password', { token: u.token, body: { currentPassword: 'password number two', newPassword: 'password number three' } });
    expect(second.status).toBe(200);
    expect(await userItem(u)).toMatchObject({ sessionEpoch: 2, keptSession: { id: u.sessionId, from: 0 } });
    expect((await whoAmI(u.token)).status).toBe(200);
    expect((await whoAmI(other.token)).status).toBe(401);
    expect((await whoAmI(gone.token)).status).toBe(401);
    // Its refreshed tokens are of the new epoch.
    const refreshed = await doRefresh(u.refreshToken);
    expect(decodeJwt(refreshed.body.token).sep).toBe(2);
    expect((await whoAmI(refreshed.body.token)).status).toBe(200);
  });

  it(`past ${ENDED_MAX} notes at once, every session of the account ends`, async () => {
    const u = await makeUser();
    const other = await loginAgain(u);
    const nowMs = Date.now();
    const notes = Object.fromEntries(Array.from({ length: ENDED_MAX }, (_, i) => [`S${i}`, nowMs - i]));
    await db.send(new UpdateCommand({
      TableName: TABLE, Key: keys.user(u.id), UpdateExpression: 'SET endedSessions = :n, endedV = :v', ExpressionAttributeValues: { ':n': notes, ':v': 1 },
    }));
    expect((await call(logout, 'POST /auth/logout', { token: other.token })).status).toBe(200);
    const item = await userItem(u);
    expect(item).toMatchObject({ sessionEpoch: 1, endedV: 2 });
    expect(item.endedSessions).toBeUndefined();
    expect((await whoAmI(u.token)).status).toBe(401);
    expect((await doRefresh(u.refreshToken)).status).toBe(401);
  });
});

describe('the same hashing work on every wrong-password path', () => {
  // Counted, not timed: each answer does the same number of Argon2id computations of the same cost.
  // A password change also hashes its new password, beside the check (functions/auth/password.ts).
  it('login (unknown account, wrong password) and account deletion (wrong password) each run Argon2id once; a password change (wrong current password) the check and the new hash', async () => {
    const u = await makeUser();
    const spy = jest.spyOn(argon2, 'hashRaw');
    const count = async (fn: () => Promise<{ status: number }>, status: number) => {
      spy.mockClear();
      expect((await fn()).status).toBe(status);
      return { calls: spy.mock.calls.length, N: spy.mock.calls.map((c) => (c[1] as { memoryCost: number }).memoryCost) };
    };
    try {
      const unknown = await count(() => call(login, 'POST /auth/login', { body: { identifier: uniq('nobody'), password: 'x' } }), 401);
      const wrongLogin = await count(() => call(login, 'POST /auth/login', { body: { identifier: u.username, password: 'wrong password' } }), 401);
      const wrongChange = await count(() => call(password, 'POST /auth/password', { token: u.token, body: { currentPassword: 'wrong password', newPassword: 'some new password' } }), 401);
      const wrongDeletion = await count(() => call(deleteMe, 'DELETE /users/me', { token: u.token, body: { password: 'wrong password' } }), 401);
      expect(unknown).toEqual({ calls: 1, N: [19456] });
      expect(wrongLogin).toEqual(unknown);
      expect(wrongChange).toEqual({ calls: 2, N: [19456, 19456] });
      expect(wrongDeletion).toEqual(unknown);
      // A refresh runs none: its token is 256 random bits, hashed with SHA-256.
      expect(await count(() => doRefresh(u.refreshToken), 200)).toEqual({ calls: 0, N: [] });
    } finally {
      spy.mockRestore();
    }
  });
});

describe('no Scan: the session list is a Query of the caller\'s partition', () => {
  it('keeps session items in the user partition under SESSION#', async () => {
    const u = await makeUser();
    const items = await queryAll(keys.user(u.id).PK);
    expect(items.filter((i) => String(i.SK).startsWith('SESSION#')).map((i) => i.id)).toEqual([u.sessionId]);
  });
});
