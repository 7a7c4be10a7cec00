// The followers and following lists of a user, as the caller may see them: the owner
// must exist and must not have blocked the caller; entries on either side of a block with
// the caller are left out. Round trips (2 by id, 3 by username: the claim comes first):
//   1. the page Query ∥ one BatchGet of the owner and the caller's relation to them
//      (∥ the caller's bookmark ids, read ahead: see below);
//   2. one BatchGet of the entries' user items and their relations to the caller ∥ the
//      entries' embedded edge arrays.
// The caller can be on the page, and its own object carries its live bookmarks, which take
// a Query and then a BatchGet of the posts: reading the bookmark ids in round 1 (0.5 RCU
// whether needed or not) keeps that pair from adding a third round.
import { EMBED_LIMIT, bookmarkIds, resolveUserId } from '../users/repo';
import { NotFound } from '../errors';
import type { Caller } from '../auth/caller';
import { blockedEitherWay, readRelations, relationKeys } from './relations';
import { edgePage, type EdgePage } from './lists';
import { visibleUser } from './lookup';
import { presentIds } from './present';

export async function userList(kind: 'followers' | 'following', identifier: string, caller: Caller, limit: number, cursor?: string) {
  const ownBookmarks = bookmarkIds(caller.userId, EMBED_LIMIT.list);
  // Awaited only when the caller is on the page; a failure otherwise must not go unhandled.
  ownBookmarks.catch(() => undefined);
  const ownerId = await resolveUserId(identifier);
  if (!ownerId) throw new NotFound('user');
  const [owner, page] = await Promise.all([
    visibleUser(caller.userId, ownerId),
    edgePage(kind, ownerId, limit, cursor),
  ]);
  if (!owner) throw new NotFound('user');
  return visibleUsers(page, caller.userId, ownBookmarks);
}

async function visibleUsers(page: EdgePage, callerId: string, ownBookmarks: Promise<string[]>) {
  const { users, found } = await presentIds(page.ids, callerId, { also: relationKeys(callerId, page.ids), ownBookmarks });
  const rels = readRelations(callerId, page.ids, found);
  const list = page.ids
    .filter((id) => users.has(id) && !blockedEitherWay(rels.get(id)))
    .map((id) => ({ ...users.get(id)!, isFollowing: rels.get(id)!.isFollowing }));
  return { users: list, pagination: page.pagination };
}
