import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { verifyPassword } from '../../lib/auth/password';
import { assertNotLocked, readGuard, recordFailure } from '../../lib/auth/login-guard';
import { deleteAccount } from '../../lib/account/delete';
import { InvalidCredentials } from '../../lib/errors';

export const deleteAccountBody = z.strictObject({
  password: z.string().check(z.minLength(1), z.maxLength(1024)),
});

export const handler = http({ body: deleteAccountBody }, async ({ body, caller, trace }) => {
  const [user, guard] = await Promise.all([caller.user(), readGuard(caller.userId)]);
  // Exactly a login's checks: the lock first, then one scrypt, a failure counted toward the lock.
  assertNotLocked(guard);
  if (!(await verifyPassword(body.password, user.passwordHash))) {
    await recordFailure(user.id);
    throw new InvalidCredentials();
  }
  await deleteAccount(user, trace, { body });
  return { body: { message: 'Account deleted successfully' } };
});
