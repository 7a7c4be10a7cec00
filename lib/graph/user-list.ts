// The followers and following lists of a user, as the caller may see them: the owner
// must exist and must not have blocked the caller; entries on either side of a block with
// the caller are left out. Round trips (2 by id, 3 by username: the claim comes first):
//   1. the page Query ∥ the caller's bookmark ids (read ahead) ∥ the caller's block lists
//      (read by authentication on every GET: they answer "has the owner blocked me");
//   2. one BatchGet of the owner's and the entries' user items (which carry their newest
//      follower and following ids, lib/graph/recent.ts), the caller's follow edges to them,
//      and, when the caller is on the page, its bookmarked posts (their liveness).
// 8 requests with the caller's own 2 reads (issue 19's target); one more round trip only for a
// user whose recent ids are behind its edges (lib/graph/present.ts).
import { EMBED_LIMIT, bookmarkIds, resolveUserId } from '../users/repo';
import { NotFound } from '../errors';
import type { Viewer } from './viewer';
import { itemKey, type Key } from '../db/batch';
import type { BaseUser, UserItem } from '../users/model';
import type { BlockLists } from './hidden';
import * as keys from '../keys';
import { followPlan, followReads, relationsFrom } from './relations';
import { edgePage } from './lists';
import { presentIds } from './present';
import { assertListsOpen, requestedAmong } from './visibility';

/** A page of listed users as the caller sees them, with `isFollowing`; `found` holds `also` (the list's owner or post). */
export interface Listed {
  users: (BaseUser & { isFollowing: boolean; requested: boolean })[];
  found: Map<string, unknown>;
  lists: BlockLists;
}

/**
 * Round trip 2 of every user list (followers, following, likers): one BatchGet of `also`, the
 * visible users' items (with their recent ids) and the caller's follow edges to them; the
 * caller's own object from its item, its block lists and its bookmarks read ahead (`page`
 * is awaited beside the caller's own reads).
 */
export async function listedUsers(caller: Viewer, page: Promise<string[]>, also: Key[]): Promise<Listed> {
  // Read ahead, 1 Query on every page: when the caller is on it, its own object's live
  // bookmarks are then checked in the page's one BatchGet (lib/graph/present.ts).
  const ownBookmarks = bookmarkIds(caller.userId, EMBED_LIMIT.list);
  ownBookmarks.catch(() => undefined);
  const [me, lists, hidden, pageIds] = await Promise.all([caller.user(), caller.blockLists(), caller.hidden(), page]);
  const ids = pageIds.filter((id) => !hidden.has(id));
  const plan = followPlan(me, ids.filter((id) => id !== caller.userId).length);
  const follow = followReads(caller.userId, plan, ids);
  const { users, found } = await presentIds(ids, caller.userId, {
    also: [...also, ...follow.keys],
    known: new Map([[me.id, me]]),
    // Its blocked_users leave the accounts hidden from everyone in lib/http's scrub of every GET.
    viewer: { item: me, bookmarks: ownBookmarks, blocked: Promise.resolve(lists.blocked) },
    hidden: Promise.resolve(hidden),
  });
  const [follows, requested] = await Promise.all([follow.follows(found), requestedAmong(me, ids)]);
  const rels = relationsFrom(caller.userId, ids, follows, lists);
  return {
    users: ids.filter((id) => users.has(id)).map((id) => ({ ...users.get(id)!, isFollowing: rels.get(id)!.isFollowing, requested: requested.has(id) })),
    found,
    lists,
  };
}

export async function userList(kind: 'followers' | 'following', identifier: string, caller: Viewer, limit: number, cursor?: string) {
  const ownerId = await resolveUserId(identifier);
  if (!ownerId) throw new NotFound('user');
  const page = edgePage(kind, ownerId, limit, cursor, caller.hidden());
  page.catch(() => undefined);
  // The owner must exist and must not have blocked the caller (nor be hidden from everyone):
  // the block lists say the second, its item (read with the page's users) the first.
  const { users, found, lists } = await listedUsers(caller, page.then((p) => p.ids), [keys.user(ownerId)]);
  if (lists.blockedBy.includes(ownerId) || (ownerId !== caller.userId && !found.has(itemKey(keys.user(ownerId))))) throw new NotFound('user');
  // A private account's lists: 403 PRIVATE_ACCOUNT to all but its owner and approved followers (contract section 18).
  const owner = found.get(itemKey(keys.user(ownerId))) as UserItem | undefined;
  if (owner) await assertListsOpen(caller.userId, owner);
  return { users, pagination: (await page).pagination };
}
