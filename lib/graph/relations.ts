// How the caller stands to other users: following them, blocking them, blocked by them.
// One BatchGet of the edge items for a whole page of users (never one request per user).
import { batchGet, itemKey, type Key } from '../db/batch';
import { recentEdges, type UserItem } from '../users/model';
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
 * the blocks, and only the follow edge read by key per user (`followKeys`, in the page's
 * BatchGet). Beside the 4 keys per user of relationKeys, 1 (issue 19: lists near their floor).
 */
export function followKeys(callerId: string, userIds: string[]): Key[] {
  return [...new Set(userIds)].filter((id) => id !== callerId).map((id) => keys.follow(callerId, id));
}

export function relationsFrom(callerId: string, userIds: string[], found: Map<string, unknown>, lists: BlockLists, recentFollowing?: string[]): Map<string, Relation> {
  const blocked = new Set(lists.blocked);
  const blockedBy = new Set(lists.blockedBy);
  const out = new Map<string, Relation>();
  for (const id of userIds) {
    out.set(id, id === callerId
      ? NO_RELATION
      : {
        isFollowing: found.has(itemKey(keys.follow(callerId, id))) || !!recentFollowing?.includes(id),
        isBlocked: blocked.has(id),
        blocksCaller: blockedBy.has(id),
      });
  }
  return out;
}

/**
 * Whether the follow keys of a page may be read eventually consistent (half the read units):
 * when the caller's recent ids reflect every follow change of the caller (lib/graph/recent.ts),
 * its follows of the last moments are in `recentFollowing`, which relationsFrom trusts beside
 * the keys; an older follow or unfollow has reached every replica. While the caller's own
 * change is not yet reflected, the keys are read strongly consistent.
 */
export function followReads(me: UserItem): { consistent: boolean; recentFollowing?: string[] } {
  const recent = recentEdges(me);
  return recent ? { consistent: false, recentFollowing: recent.following } : { consistent: true };
}
