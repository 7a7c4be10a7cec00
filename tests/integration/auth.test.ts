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
const checksOf = async (userId: string) => ((await getItem(keys.loginGuard(userId)))?.checks as Set<number> | undefined)?.size ?? 0;

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
    // The ten failures are kept; the refused checks took their times out again.
    const guard = await getItem(keys.loginGuard(u.id));
    expect(guard!.checks.size).toBe(10);
    expect(guard!.lockedUntil).toBeGreaterThan(Date.now());
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
