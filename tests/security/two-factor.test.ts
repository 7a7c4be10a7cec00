// Two-factor sign-in under attack (contract sections 3 and 17): replays of a used code, a used
// recovery code and a spent challenge; the same code or challenge sent twice at once; another
// account's challenge; wrong codes under the login lock.
import { call } from '../support/invoke';
import { makeUser } from '../support/factories';
import { getItem } from '../support/db';
import { challengeOf, codeNow, withTwoFactor } from '../support/two-factor';
import { handler as login } from '../../functions/auth/login';
import { handler as login2fa } from '../../functions/auth/login-2fa';
import { handler as disable } from '../../functions/auth/two-factor-disable';
import * as keys from '../../lib/keys';

const checksOf = async (userId: string) => ((await getItem(keys.loginGuard(keys.user(userId).PK)))?.checks as Set<number> | undefined)?.size ?? 0;
const second = (challenge: string, code: string, sourceIp?: string) => call(login2fa, 'POST /auth/login/2fa', { body: { challenge, code }, sourceIp });
/** A 6-digit code of none of the window's steps. */
const wrongCode = (secret: string) => {
  const window = [-1, 0, 1].map((o) => codeNow(secret, o));
  for (let n = 0; ; n++) {
    const c = String(n).padStart(6, '0');
    if (!window.includes(c)) return c;
  }
};

describe('replays', () => {
  it('refuses a TOTP code already accepted (the enabling one, and one a login used), with a new challenge', async () => {
    const u = await makeUser();
    const { secret, enablingCode } = await withTwoFactor(u);
    const enablingReplay = await second(await challengeOf(u), enablingCode);
    expect(enablingReplay.status).toBe(401);
    expect(enablingReplay.body.code).toBe('INVALID_CREDENTIALS');
    const code = codeNow(secret, 1);
    expect((await second(await challengeOf(u), code)).status).toBe(200);
    const replay = await second(await challengeOf(u), code);
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('INVALID_CREDENTIALS');
    expect(replay.body).not.toHaveProperty('token');
  });

  it('refuses a recovery code already used, at login and in disable', async () => {
    const u = await makeUser();
    const { recoveryCodes } = await withTwoFactor(u);
    expect((await second(await challengeOf(u), recoveryCodes[0]!)).status).toBe(200);
    expect((await second(await challengeOf(u), recoveryCodes[0]!)).status).toBe(401);
    const off = await call(disable, 'POST /auth/2fa/disable', { token: u.token, body: { password: u.password, code: recoveryCodes[0] } });
    expect(off.status).toBe(401);
    expect(off.body.code).toBe('INVALID_CREDENTIALS');
  });

  it('refuses a spent challenge, also with a fresh right code', async () => {
    const u = await makeUser();
    const { recoveryCodes } = await withTwoFactor(u);
    const challenge = await challengeOf(u);
    expect((await second(challenge, recoveryCodes[0]!)).status).toBe(200);
    const again = await second(challenge, recoveryCodes[1]!);
    expect(again.status).toBe(401);
    expect(again.body.code).toBe('INVALID_CREDENTIALS');
    // The recovery code sent with the spent challenge is still good.
    expect((await second(await challengeOf(u), recoveryCodes[1]!)).status).toBe(200);
  });

  it('does not spend the challenge on a wrong code', async () => {
    const u = await makeUser();
    const { secret } = await withTwoFactor(u);
    const challenge = await challengeOf(u);
    expect((await second(challenge, wrongCode(secret))).status).toBe(401);
    expect((await second(challenge, codeNow(secret, 1))).status).toBe(200);
  });
});

describe('the same code or challenge twice at once', () => {
  it('accepts a TOTP code once when it is sent twice at once (two challenges)', async () => {
    const u = await makeUser();
    const { secret } = await withTwoFactor(u);
    const [a, b] = [await challengeOf(u), await challengeOf(u)];
    const code = codeNow(secret, 1);
    const answers = await Promise.all([second(a, code), second(b, code)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it('accepts a recovery code once when it is sent twice at once', async () => {
    const u = await makeUser();
    const { recoveryCodes } = await withTwoFactor(u);
    const [a, b] = [await challengeOf(u), await challengeOf(u)];
    const answers = await Promise.all([second(a, recoveryCodes[2]!), second(b, recoveryCodes[2]!)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 401]);
    expect((await getItem(keys.twoFactor(u.id)))!.recovery.size).toBe(9);
  });

  it('completes one sign-in with a challenge sent twice at once with two right codes', async () => {
    const u = await makeUser();
    const { recoveryCodes } = await withTwoFactor(u);
    const challenge = await challengeOf(u);
    const answers = await Promise.all([second(challenge, recoveryCodes[0]!), second(challenge, recoveryCodes[1]!)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 401]);
  });
});

describe('another account\'s challenge', () => {
  it('checks the code against the challenge\'s account only: another account\'s right code is a wrong one', async () => {
    const [a, b] = [await makeUser(), await makeUser()];
    await withTwoFactor(a);
    const { secret: secretB, recoveryCodes: codesB } = await withTwoFactor(b);
    const challengeA = await challengeOf(a);
    for (const code of [codeNow(secretB, 1), codesB[0]!]) {
      const res = await second(challengeA, code);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('INVALID_CREDENTIALS');
    }
    // Counted against a; b's codes are unspent.
    expect(await checksOf(a.id)).toBe(2);
    expect((await second(await challengeOf(b), codesB[0]!)).status).toBe(200);
  });

  it('refuses a made-up challenge, also one naming a real account', async () => {
    const u = await makeUser();
    const { recoveryCodes } = await withTwoFactor(u);
    await challengeOf(u);
    for (const made of [`${'0'.repeat(26)}.${'A'.repeat(43)}`, `${u.id}.${'A'.repeat(43)}`]) {
      const res = await second(made, recoveryCodes[0]!);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('INVALID_CREDENTIALS');
    }
    // Another account's id in front of a real challenge's secret part names no challenge.
    const [, secretPart] = (await challengeOf(u)).split('.');
    const other = await makeUser();
    expect((await second(`${other.id}.${secretPart}`, recoveryCodes[0]!)).status).toBe(401);
  });
});

describe('the login lock', () => {
  it('counts wrong codes as failed checks: after 10 from an address, its right code is a 429', async () => {
    const u = await makeUser();
    const { secret } = await withTwoFactor(u);
    const challenge = await challengeOf(u, '198.51.100.7');
    for (let i = 0; i < 10; i++) expect((await second(challenge, wrongCode(secret), '198.51.100.7')).status).toBe(401);
    const right = await second(challenge, codeNow(secret, 1), '198.51.100.7');
    expect(right.status).toBe(429);
    expect(right.body.code).toBe('TOO_MANY_ATTEMPTS');
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    // The right password from that address is locked out too.
    expect((await call(login, 'POST /auth/login', { body: { identifier: u.username, password: u.password }, sourceIp: '198.51.100.7' })).status).toBe(429);
  });

  it('lets a challenge guess no more codes than the lock allows, also all at once', async () => {
    const u = await makeUser();
    const { secret } = await withTwoFactor(u);
    const challenge = await challengeOf(u, '198.51.100.8');
    const burst = await Promise.all(Array.from({ length: 30 }, () => second(challenge, wrongCode(secret), '198.51.100.8')));
    const checked = burst.filter((r) => r.status === 401).length;
    expect(checked).toBeLessThanOrEqual(10);
    expect(burst.filter((r) => r.status === 429).length).toBe(30 - checked);
    expect(await checksOf(u.id)).toBe(checked);
  });

  it('keeps failed checks across a right password: 9 wrong codes, a new challenge, 1 more lock the address', async () => {
    const u = await makeUser();
    const { secret } = await withTwoFactor(u);
    const ip = '198.51.100.9';
    const first = await challengeOf(u, ip);
    for (let i = 0; i < 9; i++) expect((await second(first, wrongCode(secret), ip)).status).toBe(401);
    const next = await challengeOf(u, ip);
    expect((await second(next, wrongCode(secret), ip)).status).toBe(401);
    expect((await second(next, codeNow(secret, 1), ip)).status).toBe(429);
  });

  it('forgets the address\'s failed checks once a sign-in completes', async () => {
    const u = await makeUser();
    const { secret } = await withTwoFactor(u);
    const ip = '198.51.100.10';
    const challenge = await challengeOf(u, ip);
    for (let i = 0; i < 9; i++) expect((await second(challenge, wrongCode(secret), ip)).status).toBe(401);
    // Another address's failure stays.
    expect((await second(challenge, wrongCode(secret), '203.0.113.5')).status).toBe(401);
    expect(await checksOf(u.id)).toBe(10);
    expect((await second(challenge, codeNow(secret, 1), ip)).status).toBe(200);
    expect(await checksOf(u.id)).toBe(1);
  });
});
