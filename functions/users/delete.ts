import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { confirmPassword, readGuard } from '../../lib/auth/login-guard';
import { deleteAccount } from '../../lib/account/delete';

export const deleteAccountBody = z.strictObject({
  password: z.string().check(z.minLength(1), z.maxLength(1024)),
});

export const handler = http({ body: deleteAccountBody }, async ({ body, caller, trace }) => {
  const [user, guard] = await Promise.all([caller.user(), readGuard(caller.userId)]);
  await confirmPassword(user, body.password, guard);
  await deleteAccount(user, trace, { body });
  return { body: { message: 'Account deleted successfully' } };
});
