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
import { goneChanged, goneItem, unsuspended } from '../users/gone';
import { getUser } from '../users/repo';
import { tagRecountJob } from '../tags/recount-job';

/** Attempts of a suspension whose account's session epoch moved under it. */
const SUSPEND_ATTEMPTS = 3;

/**
 * Suspends `user` (with `extra` items in the same transaction: the report's resolution). The
 * write is conditioned on the session epoch read with `user`; when it moved (the owner's
 * password change or logouts, another moderator's suspension), the account is read again: a
 * deleted one is a 404, one suspended meanwhile answers false (nothing written, `extra`
 * neither), and any other goes again with its new epoch.
 */
export async function suspendAccount(user: UserItem, moderatorId: string, trace: TraceContext, payload: Record<string, unknown>, extra: TxItem[] = []): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    const moved = new NotFound('user');
    try {
      await suspendOnce(user, moderatorId, trace, payload, extra, moved);
      return true;
    } catch (err) {
      if (err !== moved || attempt >= SUSPEND_ATTEMPTS) throw err;
      const now = await getUser(user.id);
      if (!now || now.deletedAt) throw err;
      if (now.suspendedAt) return false;
      user = now;
    }
  }
}

async function suspendOnce(user: UserItem, moderatorId: string, trace: TraceContext, payload: Record<string, unknown>, extra: TxItem[], moved: NotFound): Promise<void> {
  const now = new Date().toISOString();
  await endAllSessions(user, trace, {
    type: 'USER_SUSPENDED',
    description: `Moderator ${moderatorId} suspended user @${user.username}; every session of the account was ended.`,
    actorId: moderatorId,
    payload,
    diff: { before: { suspended: false }, after: { suspended: true }, changes: ['suspended'] },
  }, {
    set: { suspendedAt: now },
    // The epoch read with `user` must still be there (suspendAccount reads it again if not).
    onConflict: () => moved,
    extra: [
      goneItem(user.id, 'suspended', now),
      goneChanged(),
      // Contract section 19: its posts leave the tags' postsCount.
      tagRecountJob(user.id, now),
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
    tagRecountJob(user.id, new Date().toISOString()),
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
