import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { resetPassword } from '../../lib/auth/recovery';
import * as f from '../../lib/users/fields';

export const resetBody = z.strictObject({
  token: z.string().check(z.minLength(1), z.maxLength(200)),
  newPassword: f.password(),
});

export const handler = http({ auth: false, body: resetBody }, async ({ body, trace }) => {
  await resetPassword(body.token, body.newPassword, trace, { body });
  return { body: { message: 'Your password was reset. Log in with the new one.' } };
});
