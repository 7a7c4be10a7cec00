import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { trimmedLengthPattern } from '../../lib/fields';
import { login } from '../../lib/auth/login';
import { userAgentOf } from '../../lib/auth/sessions';

const codePoints = (s: string) => [...s].length;
export const loginBody = z.strictObject({
  // Lengths in code points (as JSON Schema counts them), checked before lower-casing (which can lengthen).
  identifier: z.string().check(
    z.trim(),
    z.refine((s) => codePoints(s) >= 1 && codePoints(s) <= 254, 'must be a username or an e-mail address of 1-254 characters'),
    z.toLowerCase(),
    z.meta({ minLength: 1, pattern: trimmedLengthPattern(1, 254), description: 'a username or an e-mail address; trimmed, then 1-254 characters' }),
  ),
  password: z.string().check(
    z.refine((s) => codePoints(s) >= 1 && codePoints(s) <= 1024, 'must be 1-1024 characters long'),
    z.meta({ minLength: 1, maxLength: 1024 }),
  ),
});

export const handler = http({ auth: false, body: loginBody }, async ({ body, trace, headers, event }) => {
  const userAgent = userAgentOf(headers['user-agent'] ?? event.requestContext?.http?.userAgent);
  const session = await login(body, { sourceIp: event.requestContext?.http?.sourceIp, userAgent, trace, payload: { body } });
  // Two-factor sign-in on: no token yet, a challenge for POST /auth/login/2fa (contract section 17).
  if ('twoFactorRequired' in session) return { body: { ...session } };
  return { body: { message: 'Login successful', ...session } };
});
