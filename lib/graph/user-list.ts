// The followers and following lists of a user, as the caller may see them: the owner
// must exist and must not have blocked the caller; entries on either side of a block with
// the caller are left out. Round trips: the page (with the owner and the caller's relation
// to them beside it), then the entries' users, edges and relations to the caller together.
import { getUser, resolveUserId } from '../users/repo';
import { NotFound } from '../errors';
import type { Caller } from '../http/request';
import { blockedEitherWay, relations } from './relations';
import { edgePage, type EdgePage } from './lists';
import { presentIds } from './present';

export async function userList(kind: 'followers' | 'following', identifier: string, caller: Caller, limit: number, cursor?: string) {
  const ownerId = await resolveUserId(identifier);
  if (!ownerId) throw new NotFound('user');
  const [owner, toOwner, page] = await Promise.all([
    getUser(ownerId),
    relations(caller.userId, [ownerId]),
    edgePage(kind, ownerId, limit, cursor),
  ]);
  if (!owner || toOwner.get(ownerId)!.blocksCaller) throw new NotFound('user');
  return visibleUsers(page, caller.userId);
}

async function visibleUsers(page: EdgePage, callerId: string) {
  const [{ users }, rels] = await Promise.all([presentIds(page.ids, callerId), relations(callerId, page.ids)]);
  const list = page.ids
    .filter((id) => users.has(id) && !blockedEitherWay(rels.get(id)))
    .map((id) => ({ ...users.get(id)!, isFollowing: rels.get(id)!.isFollowing }));
  return { users: list, pagination: page.pagination };
}
