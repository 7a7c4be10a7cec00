// Test data through the real handlers: users are registered, not inserted, so every
// test exercises the same code paths a client does.
import { randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { call } from './invoke';
import { handler as register } from '../../functions/auth/register';
import { inFlight } from './concurrency';

let seq = 0;
export const uniq = (prefix = 'u') => `${prefix}${Date.now().toString(36).slice(-4)}${(seq++).toString(36)}${randomBytes(3).toString('hex')}`.toLowerCase().slice(0, 30);

export interface TestUser {
  id: string;
  token: string;
  /** The session the registration started (the token's `sid`). */
  sessionId: string;
  refreshToken: string;
  username: string;
  email: string;
  password: string;
  name: string;
}

export async function makeUser(overrides: Partial<{ username: string; name: string; email: string; password: string }> = {}): Promise<TestUser> {
  const username = overrides.username ?? uniq();
  const input = {
    name: overrides.name ?? `Test ${username}`,
    username,
    email: overrides.email ?? `${username}@example.test`,
    password: overrides.password ?? `pw-${randomBytes(6).toString('hex')}`,
  };
  const res = await call(register, 'POST /auth/register', { body: input });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  return { id: res.body.user._id, token: res.body.token, sessionId: String(decodeJwt(res.body.token).sid), refreshToken: res.body.refreshToken, ...input, username: input.username.toLowerCase() };
}

/**
 * n users, registered 4 at a time: each registration hashes a password with scrypt (about
 * 40 ms of CPU in libuv's 4 threads), so 50 started at once in one process queue behind one
 * another, and on a loaded machine the last outlived their function's 10 s and starved the
 * other test file's requests with them (a full run beside a CPU-bound process, 2026-11-24).
 */
export const makeUsers = (n: number) => inFlight(4, Array.from({ length: n }, () => () => makeUser()));
