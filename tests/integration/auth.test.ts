import { call } from '../support/invoke';
import { makeUser, uniq } from '../support/factories';
import { getItem } from '../support/db';
import { handler as register } from '../../functions/auth/register';
import { handler as login } from '../../functions/auth/login';
import { handler as me } from '../../functions/users/me';
import { handler as changePassword } from '../../functions/auth/password';
import { handler as deleteMe } from '../../functions/users/delete';
import * as keys from '../../lib/keys';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../../lib/db/client';

/** How many checks the account's login lock holds (failed, or still running). */
const checksOf = async (userId: string) => ((await getItem(keys.loginGuard(keys.user(userId).PK)))?.checks as Set<number> | undefined)?.size ?? 0;

describe('POST /auth/register', () => {
  it('creates the account and answers a working token and the own user object', async () => {
    const username = uniq('Reg');
    const res = await call(register, 'POST /auth/register', {
      body: { name: '  Ada Lovelace ', username: username.toUpperCase(), email: `${username}@Example.TEST`, password: 'correct horse' },
    });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    expect(res.body.user).toMatchObject({
      name: 'Ada Lovelace', username: username.toLowerCase(), email: `${username.toLowerCase()}@example.test`,
      image: '', bio: '', gender: '', emailVerified: false, followers: [], following: [], bookmarks: [], blocked_users: [],
    });
    expect(JSON.stringify(res.body)).not.toMatch(/scrypt|passwordHash|correct horse/);
    expect(res.headers['x-trace-id']).toBeTruthy();
    const who = await call(me, 'GET /users/me', { token: res.body.token });
    expect(who.status).toBe(200);
    expect(who.body.user._id).toBe(res.body.user._id);
  });

  it('refuses a taken username or e-mail in any letter case with 409, writing nothing', async () => {
    const a = await makeUser();
    const other = uniq('o');
    const takenName = await call(register, 'POST /auth/register', {
      body: { name: 'X', username: a.username.toUpperCase(), email: `${other}@example.test`, password: 'password1' },
    });
    expect(takenName.status).toBe(409);
    expect(takenName.body).toMatchObject({ success: false, code: 'USERNAME_TAKEN' });
    expect(await getItem(keys.email(`${other}@example.test`))).toBeUndefined();

    const takenMail = await call(register, 'POST /auth/register', {
      body: { name: 'X', username: other, email: a.email.toUpperCase(), password: 'password1' },
    });
    expect(takenMail.status).toBe(409);
    expect(takenMail.body.code).toBe('EMAIL_TAKEN');
    expect(await getItem(keys.username(other))).toBeUndefined();
  });

  it.each([
    ['reserved', 'explore'],
    ['identifier-shaped', '01ARZ3NDEKTSV4RRFFQ69G5FAV'],
    ['leading dot', '.abc'],
    ['double dot', 'a..b'],
    ['bad character', 'a-b'],
    ['too long', 'a'.repeat(31)],
  ])('refuses a %s username', async (_what, username) => {
    const res = await call(register, 'POST /auth/register', {
      body: { name: 'X', username, email: `${uniq()}@example.test`, password: 'password1' },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain('username');
  });

  it('names every bad field and refuses unknown fields', async () => {
    const res = await call(register, 'POST /auth/register', {
      body: { name: '', username: 'ok_name', email: 'not-an-email', password: 'short', admin: true },
    });
    expect(res.status).toBe(400);
    const paths = res.body.details.map((d: { path: string }) => d.path).sort();
    expect(paths).toEqual(['admin', 'email', 'name', 'password']);
  });

  it('races: twenty registrations with one e-mail make exactly one account', async () => {
    const email = `${uniq('race')}@example.test`;
    const results = await Promise.all(Array.from({ length: 20 }, () => call(register, 'POST /auth/register', {
      body: { name: 'Racer', username: uniq('r'), email, password: 'password1' },
    })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.code === 'EMAIL_TAKEN')).toBe(true);
    expect(results.filter((r) => r.status === 409)).toHaveLength(19);
  });
});

describe('POST /auth/login', () => {
  it('logs in by username or e-mail in any case', async () => {
    const u = await makeUser();
    for (const identifier of [u.username.toUpperCase(), u.email.toUpperCase()]) {
      const res = await call(login, 'POST /auth/login', { body: { identifier, password: u.password } });
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ _id: u.id, email: u.email });
      expect((await call(me, 'GET /users/me', { token: res.body.token })).status).toBe(200);
    }
  });

  it('answers one message for an unknown account and a wrong password', async () => {
    const u = await makeUser();
    const wrong = await call(login, 'POST /auth/login', { body: { identifier: u.username, password: 'wrong-password' } });
    const unknown = await call(login, 'POST /auth/login', { body: { identifier: uniq('nobody'), password: 'wrong-password' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.code).toBe('INVALID_CREDENTIALS');
  });

  it('locks the account after 10 failures for 15 minutes, with Retry-After', async () => {
    const u = await makeUser();
    for (let i = 0; i < 10; i++) {
      const r = await call(login, 'POST /auth/login', { body: { identifier: u.username, password: 'wrong-password' } });
      expect(r.status).toBe(401);
    }
    const locked = await call(login, 'POST /auth/login', { body: { identifier: u.username, password: u.password } });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('TOO_MANY_ATTEMPTS');
    const retry = Number(locked.headers['retry-after']);
    expect(retry).toBeGreaterThan(800);
    expect(retry).toBeLessThanOrEqual(900);
  });

  it('checks at most 10 of 12 racing guesses: the rest are 429 before any verdict, and the account is locked', async () => {
    const u = await makeUser();
    const wrong = await Promise.all(Array.from({ length: 12 }, () => call(login, 'POST /auth/login', { body: { identifier: u.username, password: 'wrong-password' } })));
    const failed = wrong.filter((r) => r.status === 401).length;
    expect(wrong.every((r) => r.status === 401 || r.status === 429)).toBe(true);
    // Each check is admitted before its verdict: never more than 10 within 15 minutes.
    expect(failed).toBe(10);
    for (const r of wrong.filter((x) => x.status === 429)) expect(r.body.code).toBe('TOO_MANY_ATTEMPTS');
    const locked = await call(login, 'POST /auth/login', { body: { identifier: u.username, password: u.password } });
    expect(locked.status).toBe(429);
    // The ten failures are kept, for the address and for all; the refused checks took their
    // marks out again. The lock is the address's: ten failures are far from the lock for all.
    const guard = await getItem(keys.loginGuard(keys.user(u.id).PK));
    expect(guard!['checks@127.0.0.1'].size).toBe(10);
    expect(guard!['lockedUntil@127.0.0.1']).toBeGreaterThan(Date.now());
    expect(guard!.checks.size).toBe(10);
    expect(guard!.lockedUntil).toBeUndefined();
  });

  it('of 20 racing guesses at most 10 wrong ones are answered; the right password sent after them is 429', async () => {
    const u = await makeUser();
    const attempt = (password: string) => call(login, 'POST /auth/login', { body: { identifier: u.username, password } });
    const burst = await Promise.all([...Array.from({ length: 19 }, () => attempt('wrong-password')), attempt(u.password)]);
    // At most 10 wrong guesses are answered; a right one, once answered, frees its place.
    const failures = burst.filter((r) => r.status === 401).length;
    const told = failures + burst.filter((r) => r.status === 200).length;
    expect(failures).toBeLessThanOrEqual(10);
    expect(told).toBeLessThanOrEqual(11);
    expect(burst.filter((r) => r.status === 429).length).toBe(20 - told);
    // Every 401 is counted, the success is not.
    expect(await checksOf(u.id)).toBe(failures);
    // 19 more wrong guesses at once, then the right password while they run: never a 200.
    const more = Array.from({ length: 19 }, () => attempt('wrong-password'));
    await new Promise((r) => setTimeout(r, 150));
    const right = await attempt(u.password);
    await Promise.all(more);
    expect(right.status).toBe(429);
    expect(right.body.code).toBe('TOO_MANY_ATTEMPTS');
  });

  it('a right password leaves no time in the list, a suspended account\'s too; a wrong one leaves its own', async () => {
    const u = await makeUser();
    const attempt = (password: string) => call(login, 'POST /auth/login', { body: { identifier: u.username, password } });
    expect((await attempt(u.password)).status).toBe(200);
    expect(await checksOf(u.id)).toBe(0);
    expect((await attempt('wrong-password')).status).toBe(401);
    expect(await checksOf(u.id)).toBe(1);
    await db.send(new UpdateCommand({ TableName: TABLE, Key: keys.user(u.id), UpdateExpression: 'SET suspendedAt = :t', ExpressionAttributeValues: { ':t': new Date().toISOString() } }));
    for (let i = 0; i < 3; i++) expect((await attempt(u.password)).status).toBe(403);
    expect(await checksOf(u.id)).toBe(1);
  });

  it('checks at most 10 racing current passwords of a password change or an account deletion, as a login\'s', async () => {
    for (const send of [
      (u: Awaited<ReturnType<typeof makeUser>>) => call(changePassword, 'POST /auth/password', { token: u.token, body: { currentPassword: 'wrong-password', newPassword: 'a new password 1' } }),
      (u: Awaited<ReturnType<typeof makeUser>>) => call(deleteMe, 'DELETE /users/me', { token: u.token, body: { password: 'wrong-password' } }),
    ]) {
      const u = await makeUser();
      const answers = await Promise.all(Array.from({ length: 12 }, () => send(u)));
      expect(answers.map((r) => r.status).sort()).toEqual([...Array(10).fill(401), 429, 429]);
      expect(await checksOf(u.id)).toBe(10);
      expect((await call(login, 'POST /auth/login', { body: { identifier: u.username, password: u.password } })).status).toBe(429);
    }
  });

  it('locks an account for the address its failures came from only: the owner elsewhere logs in, changes and deletes', async () => {
    const u = await makeUser();
    const from = (sourceIp: string, password: string, headers: Record<string, string> = {}) =>
      call(login, 'POST /auth/login', { sourceIp, headers, body: { identifier: u.username, password } });
    // The attacker's address, whatever X-Forwarded-For it writes (a header is the client's word).
    for (let i = 0; i < 10; i++) expect((await from('203.0.113.7', 'wrong-password', { 'x-forwarded-for': `198.51.100.${i}` })).status).toBe(401);
    const locked = await from('203.0.113.7', u.password, { 'x-forwarded-for': '198.51.100.99' });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(800);
    // The owner, from another address: signs in, changes the password, and could delete the account.
    const owner = await from('192.0.2.10', u.password);
    expect(owner.status).toBe(200);
    const changed = await call(changePassword, 'POST /auth/password', { sourceIp: '192.0.2.10', token: owner.body.token, body: { currentPassword: u.password, newPassword: 'a new password 1' } });
    expect(changed.status).toBe(200);
    // The lock of the attacker's address stands, for the new password too.
    expect((await from('203.0.113.7', 'a new password 1')).status).toBe(429);
    // An address's /64 is one address: another IPv6 address of the same /64 is locked with it.
    for (let i = 0; i < 10; i++) expect((await from(`2001:db8:1:2::${i + 1}`, 'wrong-password')).status).toBe(401);
    expect((await from('2001:db8:1:2:ffff::1', 'a new password 1')).status).toBe(429);
    expect((await from('2001:db8:1:3::1', 'a new password 1')).status).toBe(200);
  });

  it('locks an account for everyone at 100 failed checks from all addresses together', async () => {
    const u = await makeUser();
    const from = (sourceIp: string, password: string) => call(login, 'POST /auth/login', { sourceIp, body: { identifier: u.username, password } });
    // 9 failures from each of 11 addresses: no address reaches its own lock, 99 in all.
    for (let a = 0; a < 11; a++) {
      const answers = await Promise.all(Array.from({ length: 9 }, () => from(`198.51.100.${a + 1}`, 'wrong-password')));
      expect(answers.map((r) => r.status)).toEqual(Array(9).fill(401));
    }
    expect(await checksOf(u.id)).toBe(99);
    // Not locked yet: the owner's right password from a fresh address is a check that passes.
    expect((await from('192.0.2.1', u.password)).status).toBe(200);
    expect((await from('198.51.100.50', 'wrong-password')).status).toBe(401);
    // The hundredth failure locks the account for every address, the owner's right password too.
    const locked = await from('192.0.2.2', u.password);
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('TOO_MANY_ATTEMPTS');
    expect((await call(changePassword, 'POST /auth/password', { sourceIp: '192.0.2.3', token: u.token, body: { currentPassword: u.password, newPassword: 'a new password 1' } })).status).toBe(429);
  }, 240_000);

  it('locks an unknown identifier exactly as a known one: the 11th try from an address is a 429 with the same body', async () => {
    const u = await makeUser();
    const nobody = uniq('nobody');
    const tries = async (identifier: string) => {
      const answers = [];
      for (let i = 0; i < 11; i++) answers.push(await call(login, 'POST /auth/login', { sourceIp: '203.0.113.9', body: { identifier, password: 'wrong-password' } }));
      return answers;
    };
    const [known, unknown] = [await tries(u.username), await tries(nobody)];
    expect(known.map((r) => r.status)).toEqual([...Array(10).fill(401), 429]);
    expect(unknown.map((r) => r.status)).toEqual([...Array(10).fill(401), 429]);
    expect(unknown.map((r) => r.body)).toEqual(known.map((r) => r.body));
    // Retry-After counts from each identifier's own tenth failure: within the seconds between them.
    expect(Math.abs(Number(known[10]!.headers['retry-after']) - Number(unknown[10]!.headers['retry-after']))).toBeLessThanOrEqual(30);
    // Another address is not locked out of either.
    expect((await call(login, 'POST /auth/login', { sourceIp: '192.0.2.20', body: { identifier: nobody, password: 'wrong-password' } })).status).toBe(401);
    expect((await call(login, 'POST /auth/login', { sourceIp: '192.0.2.20', body: { identifier: u.username, password: u.password } })).status).toBe(200);
  });

  it('counts failures across a successful login: 9, a success, 1 more lock the account', async () => {
    const u = await makeUser();
    const attempt = (password: string) => call(login, 'POST /auth/login', { body: { identifier: u.username, password } });
    for (let i = 0; i < 9; i++) expect((await attempt('wrong-password')).status).toBe(401);
    expect((await attempt(u.password)).status).toBe(200);
    expect((await attempt('wrong-password')).status).toBe(401);
    const locked = await attempt(u.password);
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('TOO_MANY_ATTEMPTS');
  });
});
