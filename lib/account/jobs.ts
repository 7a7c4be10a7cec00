// The jobs of an account's cleanup, as the deleting transaction writes them (lib/account/
// delete.ts) and the change stream runs them (lib/account/cleanup.ts): kept apart from the
// sweeps themselves, so the DELETE /users/me function carries the list of kinds and not the
// code of every cleanup (feed, posts, comments, media: about 9 KB of its bundle's budget).
import type { TraceContext } from '../audit/context';
import type { JobItem } from '../events/jobs';
import * as keys from '../keys';

export interface AccountParams extends Record<string, unknown> {
  userId: string;
  trace: TraceContext;
  /** When the deletion committed (absent in jobs written before it was kept): the sweeps that read an index wait for it to settle. */
  deletedAt?: string;
}

/** The kinds of the account's items, each swept by a job; `after`: the sweep that must be done before this one starts. */
export const SWEEP_KINDS: readonly { kind: string; after?: string }[] = [
  { kind: 'following' },
  { kind: 'followers' },
  { kind: 'likes' },
  { kind: 'comments' },
  // The posts' feed entries are found through the followers, which must still be there.
  { kind: 'posts', after: 'followers' },
  { kind: 'blocks' },
  { kind: 'blockedBy' },
  { kind: 'bookmarks' },
  { kind: 'reports' },
  { kind: 'media' },
  { kind: 'home' },
  { kind: 'notifications' },
  // Contract section 18: requests to the account (their requesters' requestsOut) and mutes of it
  // (its own requests and mutes live in its partition, which the final job sweeps).
  { kind: 'requests' },
  { kind: 'mutedBy' },
];

/** The last job: the user's own partition, then the user item and the GONE item together. */
export const FINAL_KIND = 'final';

export const jobKind = (kind: string) => `account-${kind}`;

/** The job item of a sweep, cursor at the start: the stream runs its first step when it is written. */
export function jobItem(kind: string, params: AccountParams, createdAt: string): JobItem {
  return {
    ...keys.job(jobKind(kind), params.userId), type: 'JOB', kind: jobKind(kind), id: params.userId, params, cursor: '', steps: 0, createdAt,
  };
}
