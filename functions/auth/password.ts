import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { changePassword } from '../../lib/auth/password-change';
import * as f from '../../lib/users/fields';

export const passwordBody = z.strictObject({
  currentPassword: z.string().check(z.minLength(1), z.maxLength(1024)),
  newPassword: f.password(),
});

export const handler = http({ body: passwordBody }, async ({ body, caller, trace, event }) => {
  await changePassword(caller, body, { sourceIp: event.requestContext?.http?.sourceIp, trace, payload: { body } });
  return { body: { message: 'Password changed successfully' } };
});
