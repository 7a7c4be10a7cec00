import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { hashPassword } from '../../lib/users/password';
import { admit, confirmPassword, release, withdraw } from '../../lib/auth/login-guard';
import { endAllSessions, sessionKeys } from '../../lib/auth/sessions';
import { InvalidCredentials } from '../../lib/errors';
import { allSettled } from '../../lib/settle';
import * as f from '../../lib/users/fields';
import { saltClaims } from '../../lib/users/write';

export const passwordBody = z.strictObject({
  currentPassword: z.string().check(z.minLength(1), z.maxLength(1024)),
  newPassword: f.password(),
});

export const handler = http({ body: passwordBody }, async ({ body, caller, trace }) => {
  // The new password's hash and the list of the sessions to end need neither the reads nor the
  // check of the current password, so they run beside them: the hash while the reads are out,
  // and the change sends no read after its write. A wrong current password (or a locked
  // account) answers once every part is done, and its new hash is thrown away.
  // The check is admitted by the login lock beside them too; the verdict waits for it.
  const admitted = admit(caller.userId);
  const [{ user, attempt }, passwordHash, sessions] = await allSettled([
    // A refused token is no check of the password: its admission is withdrawn before the 401.
    caller.user().catch((err) => withdraw(admitted, err)).then(async (user) => ({ user, attempt: await confirmPassword(user, body.currentPassword, admitted) })),
    hashPassword(body.newPassword),
    // Only the cleanup after the change needs it: if this read fails, the change still goes
    // through and the dead sessions are read again after it (endAllSessions' default).
    sessionKeys(caller.userId).catch(() => undefined),
    admitted,
  ]);
  // The new hash and the end of every other session are one write; a racing change of the
  // password (the old hash no longer there) also ended this session.
  // A right password is no failure: its check leaves the login lock's list beside the change.
  await allSettled([release(attempt), endAllSessions(user, trace, {
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
    purge: sessions,
    // The claims carry the hash's salt, so that logins hash beside their read of the user item.
    afterCommit: () => saltClaims(user, passwordHash),
  })]);
  return { body: { message: 'Password changed successfully' } };
});
