// DELETE /users/me (contract section 13). One transaction does everything "at once": it ends
// every session (the user's sessionEpoch moves, and the item is marked deleted, so every token
// of the account gets a 401), releases the username and e-mail claims and the search items, hides
// the account from everyone (its GONE item: its profile, posts, comments and replies answer
// 404 and leave every list), writes the trace record and the cleanup jobs (cleanup.ts), which
// the change stream runs: within 60 seconds no item of the account remains.
import { endAllSessions } from '../auth/sessions';
import { releaseNames, auditable } from '../users/write';
import type { UserItem } from '../users/model';
import { InvalidCredentials } from '../errors';
import { diffState } from '../audit/diff';
import type { TraceContext } from '../audit/context';
import { TABLE } from '../db/client';
import { ConditionFailed } from '../db/transact';
import { getUser } from '../users/repo';
import { goneChanged, goneItem } from '../users/gone';
import { SWEEP_KINDS, jobItem, type AccountParams } from './jobs';
import { tagRecountJob } from '../tags/recount-job';

/** Attempts of the deletion when a racing profile edit moved what it releases. */
const NAME_ATTEMPTS = 3;

/**
 * Deletes the account in one transaction. A profile edit racing it (a new username, e-mail or
 * name) moves the claims and search terms it releases, each deleted under its `userId`: the
 * deletion then goes again from the account as it is now, while its password hash is the one
 * just checked (else 401 INVALID_CREDENTIALS).
 */
export async function deleteAccount(user: UserItem, trace: TraceContext, payload: Record<string, unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await deleteOnce(user, trace, payload);
      return;
    } catch (err) {
      if (!(err instanceof ConditionFailed) || attempt >= NAME_ATTEMPTS) throw err;
      const now = await getUser(user.id);
      if (!now || now.deletedAt || now.passwordHash !== user.passwordHash) throw new InvalidCredentials();
      user = now;
    }
  }
}

async function deleteOnce(user: UserItem, trace: TraceContext, payload: Record<string, unknown>): Promise<void> {
  const now = new Date().toISOString();
  const params: AccountParams = { userId: user.id, trace, deletedAt: now };
  await endAllSessions(user, trace, {
    type: 'USER_DELETED',
    description: `User @${user.username} deleted their account.`,
    actorId: user.id,
    payload,
    diff: diffState(auditable(user), null),
  }, {
    set: { deletedAt: now },
    // A password change racing the deletion: the password just checked is no longer the account's.
    expect: { passwordHash: user.passwordHash },
    onConflict: () => new InvalidCredentials(),
    // The account's cleanup removes its whole partition, sessions with it (its final job);
    // the sessions are refused from this write on (deletedAt, and the epoch moved).
    purge: 'swept',
    extra: [
      ...releaseNames(user),
      goneItem(user.id, 'deleted', now, SWEEP_KINDS.map((s) => s.kind)),
      goneChanged(),
      ...SWEEP_KINDS.filter((s) => !s.after).map((s) => ({ op: { Put: { TableName: TABLE, Item: jobItem(s.kind, params, now) } } })),
      // Contract section 19: its posts leave the tags' counts and trending at once (the cleanup deletes them later).
      tagRecountJob(user.id, now),
    ],
  });
}
