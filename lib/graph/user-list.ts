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
import type { Caller } from '../auth/caller';
import { itemKey } from '../db/batch';
import * as keys from '../keys';
import { followKeys, followReads, relationsFrom } from './relations';
import { edgePage } from './lists';
import { presentIds } from './present';

export async function userList(kind: 'followers' | 'following', identifier: string, caller: Caller, limit: number, cursor?: string) {
  // Read ahead, 1 Query on every page: when the caller is on it, its own object's live
  // bookmarks are then checked in the page's one BatchGet (lib/graph/present.ts).
  const ownBookmarks = bookmarkIds(caller.userId, EMBED_LIMIT.list);
  ownBookmarks.catch(() => undefined);
  const ownerId = await resolveUserId(identifier);
  if (!ownerId) throw new NotFound('user');
  const [me, lists, hidden, page] = await Promise.all([caller.user(), caller.blockLists(), caller.hidden(), edgePage(kind, ownerId, limit, cursor)]);
  // The owner must exist and must not have blocked the caller (nor be hidden from everyone):
  // the block lists say the second at once; its item is read with the page's users.
  if (lists.blockedBy.includes(ownerId)) throw new NotFound('user');
  const ids = page.ids.filter((id) => !hidden.has(id));
  const reads = followReads(me);
  const { users, found } = await presentIds(ids, caller.userId, {
    also: [keys.user(ownerId), ...followKeys(caller.userId, ids)],
    consistent: reads.consistent,
    known: new Map([[me.id, me]]),
    viewer: { item: me, bookmarks: ownBookmarks, blocked: Promise.resolve(lists.blocked) },
  });
  if (ownerId !== me.id && !found.has(itemKey(keys.user(ownerId)))) throw new NotFound('user');
  const rels = relationsFrom(caller.userId, ids, found, lists, reads.recentFollowing);
  const list = ids
    .filter((id) => users.has(id))
    .map((id) => ({ ...users.get(id)!, isFollowing: rels.get(id)!.isFollowing }));
  return { users: list, pagination: page.pagination };
}
