import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { hashPassword, verifyPassword } from '../../lib/auth/password';
import { assertNotLocked, readGuard, recordFailure } from '../../lib/auth/login-guard';
import { endAllSessions } from '../../lib/auth/sessions';
import { InvalidCredentials } from '../../lib/errors';
import * as f from '../../lib/users/fields';

export const passwordBody = z.strictObject({
  currentPassword: z.string().check(z.minLength(1), z.maxLength(1024)),
  newPassword: f.password(),
});

export const handler = http({ body: passwordBody }, async ({ body, caller, trace }) => {
  const [user, guard] = await Promise.all([caller.user(), readGuard(caller.userId)]);
  // Exactly a login's checks: the lock first, then one scrypt, a failure counted toward the lock.
  assertNotLocked(guard);
  if (!(await verifyPassword(body.currentPassword, user.passwordHash))) {
    await recordFailure(user.id);
    throw new InvalidCredentials();
  }
  const passwordHash = await hashPassword(body.newPassword);
  // The new hash and the end of every other session are one write; a racing change of the
  // password (the old hash no longer there) also ended this session.
  await endAllSessions(user, trace, {
    type: 'PASSWORD_CHANGED',
    description: `User @${user.username} changed their password; every other session was ended.`,
    actorId: user.id,
    payload: { body },
    diff: { before: { password: '[REDACTED]' }, after: { password: '[REDACTED]' }, changes: ['password'] },
  }, {
    except: caller.sessionId,
    set: { passwordHash },
    expect: { passwordHash: user.passwordHash },
    onConflict: () => new InvalidCredentials(),
  });
  return { body: { message: 'Password changed successfully' } };
});
