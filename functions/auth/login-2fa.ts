import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { loginWithCode } from '../../lib/auth/login-2fa';
import { challenge, code } from '../../lib/auth/code-fields';
import { userAgentOf } from '../../lib/auth/sessions';

export const loginTwoFactorBody = z.strictObject({ challenge: challenge(), code: code(true) });

export const handler = http({ auth: false, body: loginTwoFactorBody }, async ({ body, trace, headers, event }) => {
  const userAgent = userAgentOf(headers['user-agent'] ?? event.requestContext?.http?.userAgent);
  const session = await loginWithCode(body, { sourceIp: event.requestContext?.http?.sourceIp, userAgent, trace, payload: { body } });
  return { body: { message: 'Login successful', ...session } };
});
