// POST /auth/password (contract section 13): the current password checked under the login lock,
// the new hash written, every other session ended, in one write.
import { InvalidCredentials } from '../errors';
import { allSettled } from '../settle';
import type { TraceContext } from '../audit/context';
import type { Caller } from './caller';
import { saltClaims } from '../users/write';
import { hashPassword } from '../users/password';
import { admit, confirmPassword, release, withdraw } from './login-guard';
import { endAllSessions, sessionKeys } from './sessions';
import { passwordChangedMail } from './email';

export async function changePassword(
  caller: Caller, passwords: { currentPassword: string; newPassword: string }, ctx: { /** The connection's address as API Gateway gives it (never a header such as X-Forwarded-For): the lock counts per address. */
  sourceIp: string | undefined; trace: TraceContext; payload: Record<string, unknown> },
): Promise<void> {
  // The new password's hash and the list of the sessions to end need neither the reads nor the
  // check of the current password, so they run beside them: the hash while the reads are out,
  // and the change sends no read after its write. A wrong current password (or a locked
  // account) answers once every part is done, and its new hash is thrown away.
  // The check is admitted by the login lock beside them too; the verdict waits for it.
  const admitted = admit({ userId: caller.userId }, ctx.sourceIp);
  const [{ user, attempt }, passwordHash, sessions] = await allSettled([
    // A refused token is no check of the password: its admission is withdrawn before the 401.
    caller.user().catch((err) => withdraw(admitted, err)).then(async (user) => ({ user, attempt: await confirmPassword(user, passwords.currentPassword, admitted) })),
    hashPassword(passwords.newPassword),
    // Only the cleanup after the change needs it: if this read fails, the change still goes
    // through and the dead sessions are read again after it (endAllSessions' default).
    sessionKeys(caller.userId).catch(() => undefined),
    admitted,
  ]);
  // The new hash and the end of every other session are one write; a racing change of the
  // password (the old hash no longer there) also ended this session.
  // A right password is no failure: its check leaves the lock's guards beside the change.
  await allSettled([release(attempt), endAllSessions(user, ctx.trace, {
    type: 'PASSWORD_CHANGED',
    description: `User @${user.username} changed their password; every other session was ended.`,
    actorId: user.id,
    payload: ctx.payload,
    diff: { before: { password: '[REDACTED]' }, after: { password: '[REDACTED]' }, changes: ['password'] },
  }, {
    except: caller.sessionId,
    set: { passwordHash },
    expect: { passwordHash: user.passwordHash },
    onConflict: () => new InvalidCredentials(),
    purge: sessions,
    // The "your password was changed" notice (contract section 16), queued with the change.
    extra: [passwordChangedMail(user)],
    // The claims carry the hash's salt, so that logins hash beside their read of the user item.
    afterCommit: () => saltClaims(user, passwordHash),
  })]);
}
