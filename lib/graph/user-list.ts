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
import { resolveUserId } from '../users/repo';
import { NotFound } from '../errors';
import type { Caller } from '../auth/caller';
import { blockedEitherWay, readRelations, relationKeys } from './relations';
import { edgePage, type EdgePage } from './lists';
import { visibleUser } from './lookup';
import { presentIds } from './present';

export async function userList(kind: 'followers' | 'following', identifier: string, caller: Caller, limit: number, cursor?: string) {
  const ownerId = await resolveUserId(identifier);
  if (!ownerId) throw new NotFound('user');
  const [owner, page] = await Promise.all([
    visibleUser(caller.userId, ownerId),
    edgePage(kind, ownerId, limit, cursor),
  ]);
  if (!owner) throw new NotFound('user');
  return visibleUsers(page, caller.userId);
}

async function visibleUsers(page: EdgePage, callerId: string) {
  const { users, found } = await presentIds(page.ids, callerId, { also: relationKeys(callerId, page.ids) });
  const rels = readRelations(callerId, page.ids, found);
  const list = page.ids
    .filter((id) => users.has(id) && !blockedEitherWay(rels.get(id)))
    .map((id) => ({ ...users.get(id)!, isFollowing: rels.get(id)!.isFollowing }));
  return { users: list, pagination: page.pagination };
}
