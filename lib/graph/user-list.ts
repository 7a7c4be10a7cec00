// The followers and following lists of a user, as the caller may see them: the owner
// must exist and must not have blocked the caller; entries on either side of a block with
// the caller are left out. Round trips (2 by id, 3 by username: the claim comes first):
//   1. the page Query ∥ one BatchGet of the owner and the caller's relation to them;
//   2. one BatchGet of the entries' user items (which carry their newest follower and
//      following ids, lib/graph/recent.ts) and their relations to the caller.
// One more round trip only on a page that holds the caller itself (its own object carries
// its live bookmarks: a Query, then the posts) or a user whose recent ids are behind its
// edges (lib/graph/present.ts). The bookmark ids were read ahead on every page until
// 2026-11-24: 1 request on every page to save a round trip on the rare page with the caller.
import { getUser, resolveUserId } from '../users/repo';
import { NotFound } from '../errors';
import type { Caller } from '../auth/caller';
import { followKeys, followReads, relationsFrom } from './relations';
import { edgePage, type EdgePage } from './lists';
import { presentIds } from './present';

export async function userList(kind: 'followers' | 'following', identifier: string, caller: Caller, limit: number, cursor?: string) {
  const ownerId = await resolveUserId(identifier);
  if (!ownerId) throw new NotFound('user');
  // The owner must exist and must not have blocked the caller (nor be hidden from everyone):
  // its item, and the caller's block lists that authentication reads anyway.
  const [owner, lists, page] = await Promise.all([getUser(ownerId), caller.blockLists(), edgePage(kind, ownerId, limit, cursor)]);
  if (!owner || lists.blockedBy.includes(ownerId)) throw new NotFound('user');
  return visibleUsers(page, caller);
}

async function visibleUsers(page: EdgePage, caller: Caller) {
  const [me, lists, hidden] = await Promise.all([caller.user(), caller.blockLists(), caller.hidden()]);
  const ids = page.ids.filter((id) => !hidden.has(id));
  const reads = followReads(me);
  const { users, found } = await presentIds(ids, caller.userId, { also: followKeys(caller.userId, ids), consistent: reads.consistent, known: new Map([[me.id, me]]) });
  const rels = relationsFrom(caller.userId, ids, found, lists, reads.recentFollowing);
  const list = ids
    .filter((id) => users.has(id))
    .map((id) => ({ ...users.get(id)!, isFollowing: rels.get(id)!.isFollowing }));
  return { users: list, pagination: page.pagination };
}
