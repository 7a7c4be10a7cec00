// Suspension by a moderator (contract section 15): one transaction ends every session of the
// account (lib/auth/sessions.ts endAllSessions: its tokens get 401 at once), marks the user
// item (a login is refused while it stands) and hides the account and everything it wrote
// from everyone (its GONE item: gone.ts). Its username and e-mail stay taken. Unsuspending
// removes both marks in one transaction; nothing else changed, so everything comes back.
import { TABLE } from '../db/client';
import { transact, type TxItem } from '../db/transact';
import * as keys from '../keys';
import { NotFound } from '../errors';
import { endAllSessions } from '../auth/sessions';
import { logItem } from '../audit/records';
import type { TraceContext } from '../audit/context';
import type { UserItem } from '../users/model';
import { goneChanged, goneItem, unsuspended } from './gone';

/** Suspends `user` (with `extra` items in the same transaction: the report's resolution). */
export async function suspendAccount(user: UserItem, moderatorId: string, trace: TraceContext, payload: Record<string, unknown>, extra: TxItem[] = []): Promise<void> {
  const now = new Date().toISOString();
  await endAllSessions(user, trace, {
    type: 'USER_SUSPENDED',
    description: `Moderator ${moderatorId} suspended user @${user.username}; every session of the account was ended.`,
    actorId: moderatorId,
    payload,
    diff: { before: { suspended: false }, after: { suspended: true }, changes: ['suspended'] },
  }, {
    set: { suspendedAt: now },
    // The epoch read with `user` must still be there: a deletion racing this one moved it (404).
    onConflict: () => new NotFound('user'),
    extra: [
      goneItem(user.id, 'suspended', now),
      goneChanged(),
      ...extra,
    ],
  });
}

/** Lifts a suspension; false when the account was not suspended (nothing changed). */
export async function unsuspendAccount(user: UserItem, moderatorId: string, trace: TraceContext, payload: Record<string, unknown>): Promise<boolean> {
  if (!user.suspendedAt) return false;
  await transact([
    {
      op: {
        Update: {
          TableName: TABLE, Key: keys.user(user.id), UpdateExpression: 'REMOVE suspendedAt',
          ConditionExpression: 'attribute_exists(suspendedAt) AND attribute_not_exists(deletedAt)',
        },
      },
      onConditionFailed: () => new NotFound('user'),
    },
    unsuspended(user.id, () => new NotFound('user')),
    goneChanged(),
    logItem(trace, {
      type: 'USER_UNSUSPENDED',
      description: `Moderator ${moderatorId} lifted the suspension of user @${user.username}.`,
      actorId: moderatorId,
      payload,
      diff: { before: { suspended: true }, after: { suspended: false }, changes: ['suspended'] },
    }),
  ]);
  return true;
}
