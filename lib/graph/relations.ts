// How the caller stands to other users: following them, blocking them, blocked by them.
// One BatchGet of the edge items for a whole page of users (never one request per user).
import { batchGet, itemKey, type Key } from '../db/batch';
import { recentEdges, type UserItem } from '../users/model';
import { EMBED_LIMIT, edgeIds } from '../users/repo';
import type { BlockLists } from './hidden';
import * as keys from '../keys';

export interface Relation {
  isFollowing: boolean;
  isBlocked: boolean; // the caller blocked them
  blocksCaller: boolean; // they blocked the caller
}

/** How anyone stands to themselves. */
export const NO_RELATION: Relation = { isFollowing: false, isBlocked: false, blocksCaller: false };

/**
 * The keys that say how the caller stands to each of `userIds` (4 per other user): the three
 * edges, and the account's GONE item: an account hidden from everyone (suspended, or deleted
 * and not yet cleaned up) stands to every caller as one that blocked them (lib/graph/hidden.ts).
 */
export function relationKeys(callerId: string, userIds: string[]): Key[] {
  const others = [...new Set(userIds)].filter((id) => id !== callerId);
  return others.flatMap((id) => [keys.follow(callerId, id), keys.block(callerId, id), keys.block(id, callerId), keys.gone(id)]);
}

/** The relations, from a BatchGet answer that included relationKeys(callerId, userIds). */
export function readRelations(callerId: string, userIds: string[], found: Map<string, unknown>): Map<string, Relation> {
  const out = new Map<string, Relation>();
  for (const id of userIds) {
    out.set(id, id === callerId
      ? NO_RELATION
      : {
        isFollowing: found.has(itemKey(keys.follow(callerId, id))),
        isBlocked: found.has(itemKey(keys.block(callerId, id))),
        blocksCaller: found.has(itemKey(keys.block(id, callerId))) || found.has(itemKey(keys.gone(id))),
      });
  }
  return out;
}

export async function relations(callerId: string, userIds: string[]): Promise<Map<string, Relation>> {
  const wanted = relationKeys(callerId, userIds);
  const found = wanted.length ? await batchGet(wanted, { projection: 'createdAt' }) : new Map();
  return readRelations(callerId, userIds, found);
}

export const blockedEitherWay = (r: Relation | undefined) => !!r && (r.isBlocked || r.blocksCaller);

/**
 * Relations for a page of users from what the request holds already: the caller's two block
 * lists (read by authentication on every GET; every hidden account is in `blockedBy`) for
 * the blocks, and for the follows what the page's FollowPlan read (`follows`).
 */
export function followKeys(callerId: string, userIds: string[]): Key[] {
  return [...new Set(userIds)].filter((id) => id !== callerId).map((id) => keys.follow(callerId, id));
}

export function relationsFrom(callerId: string, userIds: string[], follows: (id: string) => boolean, lists: BlockLists): Map<string, Relation> {
  const blocked = new Set(lists.blocked);
  const blockedBy = new Set(lists.blockedBy);
  const out = new Map<string, Relation>();
  for (const id of userIds) {
    out.set(id, id === callerId
      ? NO_RELATION
      : { isFollowing: follows(id), isBlocked: blocked.has(id), blocksCaller: blockedBy.has(id) });
  }
  return out;
}

/** A follow edge as its index (GSI1, projection ALL) stores it, rounded up: what one costs in a Query of the caller's following. */
export const FOLLOW_EDGE_BYTES = 500;

/**
 * How a page learns which of its `others` users the caller follows, at the fewest read units:
 * - `recent`: the caller's recent ids are its whole following (at most RECENT_IDS.following, and
 *   current): nothing to read;
 * - `query`: one Query of the caller's following index costs fewer read units than a key per
 *   user (a follow edge is ~FOLLOW_EDGE_BYTES; 4 KB for 0.5 RCU, against 1 per key, read
 *   strongly consistent with the page's items): a caller following 20 accounts reads them for
 *   1.5 RCU where 20 keys cost 20;
 * - `keys`: the follow key of each user, in the page's BatchGet (strongly consistent in a list's
 *   page; a suggestions ranking reads them with its eventually consistent inputs unless its
 *   recent ids are behind, lib/graph/suggest.ts).
 * The index is used only while the caller's recent ids reflect every follow change of the
 * caller (recentV = edgesV: the stream has seen them, and it checks that the indexes show its
 * counts, lib/graph/recent.ts); its follows of the last moments are in `recentFollowing`,
 * trusted beside what is read. Otherwise the keys.
 */
export type FollowPlan =
  | { how: 'recent'; recentFollowing: string[] }
  | { how: 'query'; recentFollowing: string[]; limit: number }
  | { how: 'keys'; recentFollowing?: string[] };

export function followPlan(me: UserItem, others: number): FollowPlan {
  const recent = recentEdges(me);
  if (!recent) return { how: 'keys' };
  const count = Number(me.followingCount ?? 0);
  if (count <= recent.following.length) return { how: 'recent', recentFollowing: recent.following };
  // Read units: 0.5 per 4 KB of the index Query, 1 per key.
  const queryUnits = Math.ceil((count * FOLLOW_EDGE_BYTES) / 4096) / 2;
  // The limit leaves room for the index showing a follow more than the count (an unfollow it has not caught up with).
  if (queryUnits < others) return { how: 'query', recentFollowing: recent.following, limit: count + EMBED_LIMIT.list };
  return { how: 'keys', recentFollowing: recent.following };
}

/**
 * Runs a FollowPlan beside the page's BatchGet: the keys to add to it, and once both are in,
 * whether the caller follows a given user.
 */
export function followReads(callerId: string, plan: FollowPlan, others: string[]): { keys: Key[]; follows: (found: Map<string, unknown>) => Promise<(id: string) => boolean> } {
  const recent = new Set(plan.recentFollowing ?? []);
  if (plan.how === 'recent') return { keys: [], follows: async () => (id) => recent.has(id) };
  if (plan.how === 'query') {
    const following = edgeIds('GSI1', keys.followingOf(callerId), plan.limit).then((ids) => new Set(ids));
    following.catch(() => undefined);
    return { keys: [], follows: async () => { const all = await following; return (id) => recent.has(id) || all.has(id); } };
  }
  return {
    keys: followKeys(callerId, others),
    follows: async (found) => (id) => recent.has(id) || found.has(itemKey(keys.follow(callerId, id))),
  };
}
