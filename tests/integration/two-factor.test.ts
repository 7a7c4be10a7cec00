// Two-factor sign-in (contract section 17) through the real handlers: setup, enable, the login
// in two steps, disable; what the account keeps; what the answers, trace records and log lines
// never hold. Replays, races, foreign challenges and the lock: tests/security/two-factor.test.ts.
import { call } from '../support/invoke';
import { makeUser } from '../support/factories';
import { getItem } from '../support/db';
import { traceRecords } from '../support/comment-api';
import { challengeOf, codeNow, withTwoFactor } from '../support/two-factor';
import { handler as setup } from '../../functions/auth/two-factor-setup';
import { handler as enable } from '../../functions/auth/two-factor-enable';
import { handler as disable } from '../../functions/auth/two-factor-disable';
import { handler as login } from '../../functions/auth/login';
import { handler as login2fa } from '../../functions/auth/login-2fa';
import { handler as me } from '../../functions/users/me';
import { handler as profile } from '../../functions/users/profile';
import { handler as changePassword } from '../../functions/auth/password';
import { recoveryHash } from '../../lib/auth/two-factor';
import * as keys from '../../lib/keys';

const checksOf = async (userId: string) => ((await getItem(keys.loginGuard(keys.user(userId).PK)))?.checks as Set<number> | undefined)?.size ?? 0;
const whoAmI = async (token: string) => (await call(me, 'GET /users/me', { token })).body.user;

describe('POST /auth/2fa/setup', () => {
  it('answers a 160-bit base32 secret and its otpauth URL; a pending secret changes nothing', async () => {
    const u = await makeUser();
    const res = await call(setup, 'POST /auth/2fa/setup', { token: u.token, body: { password: u.password } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, secret: expect.stringMatching(/^[A-Z2-7]{32}$/), otpauthUrl: expect.stringMatching(/^otpauth:\/\/totp\//) });
    expect(new URL(res.body.otpauthUrl).searchParams.get('secret')).toBe(res.body.secret);
    expect((await whoAmI(u.token)).twoFactorEnabled).toBe(false);
    // The login still answers tokens.
    const l = await call(login, 'POST /auth/login', { body: { identifier: u.username, password: u.password } });
    expect(l.status).toBe(200);
    expect(l.body.token).toEqual(expect.any(String));
    // A setup again replaces the pending secret: the first one's code no longer enables.
    const again = await call(setup, 'POST /auth/2fa/setup', { token: u.token, body: { password: u.password } });
    expect(again.body.secret).not.toBe(res.body.secret);
    expect((await call(enable, 'POST /auth/2fa/enable', { token: u.token, body: { code: codeNow(res.body.secret) } })).status).toBe(401);
    expect((await call(enable, 'POST /auth/2fa/enable', { token: u.token, body: { code: codeNow(again.body.secret) } })).status).toBe(200);
  });

  it('refuses a wrong password with 401 INVALID_CREDENTIALS, counted by the login lock, and pends nothing', async () => {
    const u = await makeUser();
    const res = await call(setup, 'POST /auth/2fa/setup', { token: u.token, body: { password: `${u.password}x` } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('INVALID_CREDENTIALS');
    expect(await checksOf(u.id)).toBe(1);
    expect(await getItem(keys.twoFactor(u.id))).toBeUndefined();
  });
});

describe('POST /auth/2fa/enable', () => {
  it('turns it on with a code of the pending secret and answers 10 distinct recovery codes, kept only as hashes', async () => {
    const u = await makeUser();
    const { secret } = (await call(setup, 'POST /auth/2fa/setup', { token: u.token, body: { password: u.password } })).body;
    const res = await call(enable, 'POST /auth/2fa/enable', { token: u.token, body: { code: codeNow(secret) } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['recoveryCodes', 'success']);
    const codes = res.body.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}-[a-z2-7]{5}-[a-z2-7]{5}$/);
    const item = await getItem(keys.twoFactor(u.id));
    const stored = JSON.stringify({ ...item, recovery: [...(item!.recovery as Set<string>)] });
    for (const c of codes) expect(stored).not.toContain(c.replace(/-/g, ''));
    expect(item!.recovery).toEqual(new Set(codes.map((c) => recoveryHash(u.id, c))));
    expect(item!.pendingSecret).toBeUndefined();
    expect((await whoAmI(u.token)).twoFactorEnabled).toBe(true);
  });

  it('is a 400 with no pending secret or while on; a wrong code is a 401 counted by the lock', async () => {
    const u = await makeUser();
    const none = await call(enable, 'POST /auth/2fa/enable', { token: u.token, body: { code: '123456' } });
    expect(none.status).toBe(400);
    expect(none.body.code).toBe('VALIDATION_ERROR');
    const { secret } = (await call(setup, 'POST /auth/2fa/setup', { token: u.token, body: { password: u.password } })).body;
    const wrong = await call(enable, 'POST /auth/2fa/enable', { token: u.token, body: { code: codeNow(secret, 3) } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('INVALID_CREDENTIALS');
    expect(await checksOf(u.id)).toBe(1);
    expect((await call(enable, 'POST /auth/2fa/enable', { token: u.token, body: { code: codeNow(secret) } })).status).toBe(200);
    const twice = await call(enable, 'POST /auth/2fa/enable', { token: u.token, body: { code: codeNow(secret, 1) } });
    expect(twice.status).toBe(400);
    expect(twice.body.code).toBe('VALIDATION_ERROR');
    const setupOn = await call(setup, 'POST /auth/2fa/setup', { token: u.token, body: { password: u.password } });
    expect(setupOn.status).toBe(400);
    expect(setupOn.body.code).toBe('VALIDATION_ERROR');
  });
});

describe('the login in two steps', () => {
  it('answers a challenge and no token for the right password; the challenge and a code answer the session', async () => {
    const u = await makeUser();
    const { secret } = await withTwoFactor(u);
    const first = await call(login, 'POST /auth/login', { body: { identifier: u.email, password: u.password } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true, twoFactorRequired: true, challenge: expect.stringMatching(new RegExp(`^${u.id}\\.[A-Za-z0-9_-]{43}$`)) });
    const second = await call(login2fa, 'POST /auth/login/2fa', { body: { challenge: first.body.challenge, code: codeNow(secret, 1) } });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ success: true, message: 'Login successful', token: expect.any(String), refreshToken: expect.any(String), expiresIn: expect.any(Number) });
    expect(second.body.user).toMatchObject({ _id: u.id, email: u.email, twoFactorEnabled: true });
    expect((await whoAmI(second.body.token))._id).toBe(u.id);
    // A wrong password is refused as before.
    expect((await call(login, 'POST /auth/login', { body: { identifier: u.email, password: `${u.password}x` } })).status).toBe(401);
  });

  it('takes a recovery code, in any case and grouping, in place of a TOTP code', async () => {
    const u = await makeUser();
    const { recoveryCodes } = await withTwoFactor(u);
    const res = await call(login2fa, 'POST /auth/login/2fa', { body: { challenge: await challengeOf(u), code: recoveryCodes[3]!.replace(/-/g, '').toUpperCase() } });
    expect(res.status).toBe(200);
    expect((await getItem(keys.twoFactor(u.id)))!.recovery.size).toBe(9);
  });

  it('refuses a challenge issued before the password changed', async () => {
    const u = await makeUser();
    const { secret } = await withTwoFactor(u);
    const challenge = await challengeOf(u);
    expect((await call(changePassword, 'POST /auth/password', { token: u.token, body: { currentPassword: u.password, newPassword: 'another good password' } })).status).toBe(200);
    const res = await call(login2fa, 'POST /auth/login/2fa', { body: { challenge, code: codeNow(secret, 1) } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('INVALID_CREDENTIALS');
  });

  it('refuses an expired challenge (after 5 minutes) with 401', async () => {
    const u = await makeUser();
    const { secret } = await withTwoFactor(u);
    const challenge = await challengeOf(u);
    const later = Date.now() + 5 * 60_000 + 1_000;
    const clock = jest.spyOn(Date, 'now').mockReturnValue(later);
    try {
      const res = await call(login2fa, 'POST /auth/login/2fa', { body: { challenge, code: codeNow(secret, 0, later) } });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('INVALID_CREDENTIALS');
    } finally {
      clock.mockRestore();
    }
  });
});

describe('twoFactorEnabled', () => {
  it('is on the own user object only', async () => {
    const [u, other] = [await makeUser(), await makeUser()];
    await withTwoFactor(u);
    expect((await whoAmI(u.token)).twoFactorEnabled).toBe(true);
    const seen = await call(profile, 'GET /users/{identifier}', { token: other.token, params: { identifier: u.username } });
    expect(seen.status).toBe(200);
    expect(seen.body.user).not.toHaveProperty('twoFactorEnabled');
    expect(seen.body.user).not.toHaveProperty('email');
  });
});

describe('POST /auth/2fa/disable', () => {
  it('needs the password and a code; turns it off, deletes the secret and the codes; the login answers tokens again', async () => {
    const u = await makeUser();
    const { secret, recoveryCodes } = await withTwoFactor(u);
    const wrongPassword = await call(disable, 'POST /auth/2fa/disable', { token: u.token, body: { password: `${u.password}x`, code: codeNow(secret, 1) } });
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.body.code).toBe('INVALID_CREDENTIALS');
    const wrongCode = await call(disable, 'POST /auth/2fa/disable', { token: u.token, body: { password: u.password, code: codeNow(secret, 5) } });
    expect(wrongCode.status).toBe(401);
    expect(await checksOf(u.id)).toBe(2);
    const res = await call(disable, 'POST /auth/2fa/disable', { token: u.token, body: { password: u.password, code: recoveryCodes[0] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Two-factor sign-in is off' });
    expect(await getItem(keys.twoFactor(u.id))).toBeUndefined();
    expect((await whoAmI(u.token)).twoFactorEnabled).toBe(false);
    const l = await call(login, 'POST /auth/login', { body: { identifier: u.username, password: u.password } });
    expect(l.body.token).toEqual(expect.any(String));
    // Off already: a no-op once the password is right.
    const again = await call(disable, 'POST /auth/2fa/disable', { token: u.token, body: { password: u.password, code: '123456' } });
    expect(again.status).toBe(200);
    expect(again.body.message).toBe('Two-factor sign-in was already off');
  });

  it('takes a TOTP code of a step after the last accepted one', async () => {
    const u = await makeUser();
    const { secret, enablingCode } = await withTwoFactor(u);
    // The enabling code's step is used.
    expect((await call(disable, 'POST /auth/2fa/disable', { token: u.token, body: { password: u.password, code: enablingCode } })).status).toBe(401);
    expect((await call(disable, 'POST /auth/2fa/disable', { token: u.token, body: { password: u.password, code: codeNow(secret, 1) } })).status).toBe(200);
  });
});

describe('secrets in answers, trace records and log lines', () => {
  const lines: string[] = [];
  let out: jest.SpyInstance;
  let err: jest.SpyInstance;
  beforeEach(() => {
    lines.length = 0;
    const keep = (chunk: unknown) => { lines.push(String(chunk)); return true; };
    out = jest.spyOn(process.stdout, 'write').mockImplementation(keep);
    err = jest.spyOn(process.stderr, 'write').mockImplementation(keep);
  });
  afterEach(() => { out.mockRestore(); err.mockRestore(); delete process.env._X_AMZN_TRACE_ID; });

  it('never answers the secret after setup and keeps secret, codes and challenge out of every record and line', async () => {
    // Deployed, every request logs a line (lib/http/request-log.ts).
    process.env._X_AMZN_TRACE_ID = 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1';
    const u = await makeUser();
    const traceId = `tfa-${u.id}`;
    const headers = { 'X-Trace-Id': traceId };
    const s = await call(setup, 'POST /auth/2fa/setup', { token: u.token, body: { password: u.password }, headers });
    const secret = s.body.secret as string;
    const enableCode = codeNow(secret);
    const e = await call(enable, 'POST /auth/2fa/enable', { token: u.token, body: { code: enableCode }, headers });
    const codes = e.body.recoveryCodes as string[];
    const first = await call(login, 'POST /auth/login', { body: { identifier: u.username, password: u.password }, headers });
    const loginCode = codeNow(secret, 1);
    const wrong = await call(login2fa, 'POST /auth/login/2fa', { body: { challenge: first.body.challenge, code: codes[1]!.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')) }, headers });
    expect(wrong.status).toBe(401);
    const second = await call(login2fa, 'POST /auth/login/2fa', { body: { challenge: first.body.challenge, code: loginCode }, headers });
    const d = await call(disable, 'POST /auth/2fa/disable', { token: u.token, body: { password: u.password, code: codes[0] }, headers });
    expect([s.status, e.status, first.status, second.status, d.status]).toEqual([200, 200, 200, 200, 200]);
    // Not in any answer after setup's.
    for (const res of [e, first, second, d, await call(me, 'GET /users/me', { token: u.token })]) expect(res.text).not.toContain(secret);
    const records = await traceRecords(traceId);
    expect(records.map((r) => (r.action as { type: string }).type)).toEqual(expect.arrayContaining(['TWO_FACTOR_SETUP', 'TWO_FACTOR_ENABLED', 'USER_LOGIN_CHALLENGED', 'USER_LOGGED_IN', 'TWO_FACTOR_DISABLED']));
    const written = JSON.stringify(records) + lines.join('');
    expect(lines.length).toBeGreaterThan(0);
    for (const s2 of [secret, enableCode, loginCode, first.body.challenge, ...codes, ...codes.map((c) => c.replace(/-/g, '')), u.password]) expect(written).not.toContain(s2);
  });
});

describe('a password reset (contract section 16)', () => {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { handler: reset } = require('../../functions/auth/reset') as typeof import('../../functions/auth/reset');
  const { issueToken } = require('../../lib/mail/tokens') as typeof import('../../lib/mail/tokens');
  const { newId } = require('../../lib/ids') as typeof import('../../lib/ids');
  /* eslint-enable @typescript-eslint/no-require-imports */

  it('leaves two-factor sign-in on: the new password answers a challenge, and a code completes it', async () => {
    const u = await makeUser();
    const { secret } = await withTwoFactor(u);
    const token = await issueToken({ kind: 'RESET', userId: u.id, address: u.email, mailId: newId() });
    const newPassword = 'a brand new password 7';
    expect((await call(reset, 'POST /auth/password/reset', { body: { token, newPassword } })).status).toBe(200);
    const first = await call(login, 'POST /auth/login', { body: { identifier: u.username, password: newPassword } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ twoFactorRequired: true, challenge: expect.any(String) });
    expect(first.body.token).toBeUndefined();
    const second = await call(login2fa, 'POST /auth/login/2fa', { body: { challenge: first.body.challenge, code: codeNow(secret, 1) } });
    expect(second.status).toBe(200);
    expect((await whoAmI(second.body.token)).twoFactorEnabled).toBe(true);
  });
});
