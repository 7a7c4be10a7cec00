// Password recovery (contract section 16): the reset (`forgot` is ./forgot.ts). `reset` spends
// the token and, in one transaction, sets the new hash, ends every session (the epoch moves: every token gets 401 at once), lifts the
// login lock (the account's guard item deleted: its failed checks forgotten), marks the
// address verified and queues the "your password was changed" notice. It signs nobody in.
import { TABLE } from '../db/client';
import * as keys from '../keys';
import { InvalidToken } from '../errors';
import type { TraceContext } from '../audit/context';
import { getUser } from '../users/repo';
import { saltClaims } from '../users/write';
import { hashPassword } from '../users/password';
import { readToken, spendToken } from '../mail/tokens';
import { allSettled } from '../settle';
import { endAllSessions } from './sessions';
import { passwordChangedMail } from './email';

/** POST /auth/password/reset. */
export async function resetPassword(token: string, newPassword: string, trace: TraceContext, payload: Record<string, unknown>): Promise<void> {
  // The hash runs beside the reads; a bad token answers once it is done all the same.
  const [item, passwordHash] = await allSettled([readToken(token, ['RESET']), hashPassword(newPassword)]);
  const user = await getUser(item.userId);
  if (!user || user.deletedAt) throw new InvalidToken();
  await endAllSessions(user, trace, {
    type: 'PASSWORD_RESET',
    description: `User @${user.username} reset their password; every session was ended.`,
    actorId: user.id,
    payload,
    diff: { before: { password: '[REDACTED]' }, after: { password: '[REDACTED]' }, changes: ['password'] },
  }, {
    set: { passwordHash, emailVerified: true, updatedAt: new Date().toISOString() },
    // The address the token was sent to is still the account's.
    expect: { email: item.address },
    onConflict: () => new InvalidToken(),
    extra: [
      ...spendToken(item),
      // The login lock of every address, and its failed checks, go.
      { op: { Delete: { TableName: TABLE, Key: keys.loginGuard(keys.user(user.id).PK) } } },
      passwordChangedMail(user),
    ],
    afterCommit: () => saltClaims(user, passwordHash),
  });
}
