// The checks of contract section 18 that every read path shares: which private accounts a
// viewer may not see into (not their owner, not an approved follower), which authors the viewer
// muted, and which accounts the viewer has a follow request pending with. Each reads only the
// keys of the few users a page names (one BatchGet), never a list of the viewer's own: the cost
// does not grow with how many accounts the viewer muted or how many accounts are private.
// Used by profiles, lists, posts, comments, explore, the feed, bookmarks and notifications (and,
// after #45 and #46, by tag pages and live updates).
import { batchGet, itemKey } from '../db/batch';
import { privateUnfollowedIds } from '../users/private';
import * as keys from '../keys';
import { NotFound, PrivateAccount } from '../errors';
import type { UserItem } from '../users/model';

export interface Author {
  id: string;
  isPrivate?: boolean;
}

/**
 * The private accounts among `authors` the viewer may not see into: private, not the viewer,
 * not followed by the viewer. One consistent BatchGet of the viewer's follow keys to the
 * private ones (none at all when none is private); `found` may hold follow keys read already
 * (`asked`: the keys that were asked for, so an absent one means "not following").
 */
export async function privateUnfollowed(viewerId: string, authors: Author[], found?: Map<string, unknown>, asked?: Set<string>): Promise<Set<string>> {
  const locked = [...new Set(authors.filter((a) => a.isPrivate === true && a.id !== viewerId).map((a) => a.id))];
  if (!locked.length) return new Set();
  const unknown = locked.filter((id) => !asked?.has(itemKey(keys.follow(viewerId, id))));
  const read = unknown.length ? await batchGet(unknown.map((id) => keys.follow(viewerId, id)), { projection: 'createdAt' }) : new Map();
  const follows = (id: string) => !!found?.has(itemKey(keys.follow(viewerId, id))) || read.has(itemKey(keys.follow(viewerId, id)));
  return new Set(locked.filter((id) => !follows(id)));
}

/** privateUnfollowed for users known by id only: their items (isPrivate) and the follow keys in one BatchGet. */
export { privateUnfollowedIds };

/** The content of a private account the viewer does not follow does not exist to the viewer (404). */
export async function assertNotLocked(viewerId: string, authorIds: string[], what: string): Promise<void> {
  if ((await privateUnfollowedIds(viewerId, authorIds)).size) throw new NotFound(what);
}

/** The posts list and the follow lists of a private account the viewer does not follow: 403 PRIVATE_ACCOUNT. */
export async function assertListsOpen(viewerId: string, owner: Author): Promise<void> {
  if ((await privateUnfollowed(viewerId, [owner])).size) throw new PrivateAccount();
}

/** The authors among `authorIds` the viewer muted: one BatchGet of the (viewer, author) mute keys. */
export async function mutedAmong(viewerId: string, authorIds: string[]): Promise<Set<string>> {
  const others = [...new Set(authorIds)].filter((id) => id !== viewerId);
  if (!others.length) return new Set();
  const found = await batchGet(others.map((id) => keys.mute(viewerId, id)), { projection: 'createdAt' });
  return new Set(others.filter((id) => found.has(itemKey(keys.mute(viewerId, id)))));
}

/**
 * The private accounts among `authorIds` (contract section 18), whose posts explore leaves out:
 * it shows no followed author, so every private one. One BatchGet of their items (isPrivate),
 * eventually consistent like explore's other index reads.
 */
export async function privateAmong(authorIds: string[]): Promise<Set<string>> {
  const ids = [...new Set(authorIds)];
  if (!ids.length) return new Set();
  const found = await batchGet(ids.map((id) => keys.user(id)), { projection: 'isPrivate', consistent: false });
  return new Set(ids.filter((id) => (found.get(itemKey(keys.user(id))) as { isPrivate?: boolean } | undefined)?.isPrivate === true));
}

/**
 * The users among `ids` the viewer has a follow request pending with. The viewer's item counts
 * its pending requests (`requestsOut`): with none, nothing is read.
 */
export async function requestedAmong(viewer: Pick<UserItem, 'id' | 'requestsOut'>, ids: string[]): Promise<Set<string>> {
  const others = [...new Set(ids)].filter((id) => id !== viewer.id);
  if (!others.length || !Number(viewer.requestsOut ?? 0)) return new Set();
  const found = await batchGet(others.map((id) => keys.followRequest(viewer.id, id)), { projection: 'createdAt' });
  return new Set(others.filter((id) => found.has(itemKey(keys.followRequest(viewer.id, id)))));
}
