import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { hashPassword } from '../../lib/auth/password';
import { confirmPassword, readGuard } from '../../lib/auth/login-guard';
import { endAllSessions } from '../../lib/auth/sessions';
import { InvalidCredentials } from '../../lib/errors';
import * as f from '../../lib/users/fields';

export const passwordBody = z.strictObject({
  currentPassword: z.string().check(z.minLength(1), z.maxLength(1024)),
  newPassword: f.password(),
});

export const handler = http({ body: passwordBody }, async ({ body, caller, trace }) => {
  const [user, guard] = await Promise.all([caller.user(), readGuard(caller.userId)]);
  await confirmPassword(user, body.currentPassword, guard);
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
