import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { admit, confirmPassword } from '../../lib/auth/login-guard';
import { allSettled } from '../../lib/settle';
import { deleteAccount } from '../../lib/account/delete';

export const deleteAccountBody = z.strictObject({
  password: z.string().check(z.minLength(1), z.maxLength(1024)),
});

export const handler = http({ body: deleteAccountBody }, async ({ body, caller, trace }) => {
  const [user, attempt] = await allSettled([caller.user(), admit(caller.userId)]);
  // The check's time is not taken out of the login lock's list: the account's cleanup removes
  // the list with the rest of its partition.
  await confirmPassword(user, body.password, attempt, { keep: true });
  await deleteAccount(user, trace, { body });
  return { body: { message: 'Account deleted successfully' } };
});
