import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { admit, confirmPassword, withdraw } from '../../lib/auth/login-guard';
import { allSettled } from '../../lib/settle';
import { deleteAccount } from '../../lib/account/delete';

export const deleteAccountBody = z.strictObject({
  password: z.string().check(z.minLength(1), z.maxLength(1024)),
});

export const handler = http({ body: deleteAccountBody }, async ({ body, caller, trace, event }) => {
  // The check is admitted by the login lock beside the read and the hash. Its mark is not
  // released once the account is deleted: the account's cleanup removes the guard with the rest
  // of its partition. A refused token, or a deletion that fails after a right password, is no
  // failed check: the mark is withdrawn before the error answers.
  const admitted = admit({ userId: caller.userId }, event.requestContext?.http?.sourceIp);
  const [user] = await allSettled([
    caller.user().catch((err) => withdraw(admitted, err)).then(async (user) => {
      await confirmPassword(user, body.password, admitted);
      return user;
    }),
    admitted,
  ]);
  await deleteAccount(user, trace, { body }).catch((err) => withdraw(admitted, err));
  return { body: { message: 'Account deleted successfully' } };
});
