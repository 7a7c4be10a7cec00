// Accounts with two-factor sign-in on, through the real handlers (contract section 17).
import { call } from './invoke';
import type { TestUser } from './factories';
import { handler as setup } from '../../functions/auth/two-factor-setup';
import { handler as enable } from '../../functions/auth/two-factor-enable';
import { handler as login } from '../../functions/auth/login';
import { codeAt, stepAt } from '../../lib/auth/totp';

/** The code of the step `offset` steps from now (0: the current one). */
export const codeNow = (secret: string, offset = 0, nowMs = Date.now()) => codeAt(secret, stepAt(nowMs) + offset);

/** Turns two-factor sign-in on for `u` with the current step's code: its secret and recovery codes. */
export async function withTwoFactor(u: TestUser): Promise<{ secret: string; recoveryCodes: string[]; enablingCode: string }> {
  const s = await call(setup, 'POST /auth/2fa/setup', { token: u.token, body: { password: u.password } });
  if (s.status !== 200) throw new Error(`2fa setup failed: ${s.status} ${s.text}`);
  const enablingCode = codeNow(s.body.secret);
  const e = await call(enable, 'POST /auth/2fa/enable', { token: u.token, body: { code: enablingCode } });
  if (e.status !== 200) throw new Error(`2fa enable failed: ${e.status} ${e.text}`);
  return { secret: s.body.secret, recoveryCodes: e.body.recoveryCodes, enablingCode };
}

/** The first step of a login of `u` (two-factor sign-in on): its challenge. */
export async function challengeOf(u: TestUser, sourceIp?: string): Promise<string> {
  const res = await call(login, 'POST /auth/login', { body: { identifier: u.username, password: u.password }, sourceIp });
  if (res.status !== 200 || !res.body.challenge) throw new Error(`login gave no challenge: ${res.status} ${res.text}`);
  return res.body.challenge;
}
