// User objects for a list of ids: the user items in one BatchGet, which carry their newest
// follower and following ids (lib/graph/recent.ts). A user whose arrays are behind its
// edges (the stream has not caught up with a follow of the last moments), and the viewer's
// own object (its bookmarks and blocks), read their edges in a second round trip. Deleted
// users are simply absent from the result.
import { EMBED_LIMIT, bookmarkShown, loadEdges, withoutLocked } from '../users/repo';
import { recentEdges, toBaseUser, type BaseUser, type UserEdges, type UserItem } from '../users/model';
import { batchGet, itemKey, type Key } from '../db/batch';
import * as keys from '../keys';
import { privateUnfollowed } from './visibility';

export interface Presented {
  users: Map<string, BaseUser>;
  /** Everything the BatchGet found, `also` included, by itemKey. */
  found: Map<string, unknown>;
}

export interface PresentOptions {
  /** Ids per embedded array (EMBED_LIMIT.list unless said). */
  limit?: number;
  /**
   * Further keys read in the same BatchGet as the user items (a page's relations to the
   * viewer): one request instead of two side by side. Read strongly consistent, whole items.
   */
  also?: Key[];
  /**
   * The viewer's own reads, for a page the viewer may be on: its item (its recent ids), its
   * bookmark ids read ahead and its blocks (authentication's block list). The bookmarked
   * posts' liveness is then checked in the page's one BatchGet: no round trip of its own.
   */
  viewer?: { item: UserItem; bookmarks: Promise<string[]>; blocked: Promise<string[]> };
  /** User items the caller has already read: not read again. */
  known?: Map<string, UserItem>;
  /**
   * The users hidden from the viewer (lib/graph/hidden.ts hiddenIds): on its own object, their
   * posts leave `bookmarks` (lib/users/repo.ts livePosts).
   */
  hidden?: Promise<Set<string>>;
}

export async function presentIds(ids: string[], viewerId: string, opts: PresentOptions = {}): Promise<Presented> {
  const unique = [...new Set(ids)];
  const limit = opts.limit ?? EMBED_LIMIT.list;
  const onPage = unique.includes(viewerId);
  const mine = onPage && opts.viewer ? recentEdges(opts.viewer.item) : undefined;
  // The viewer's own bookmarked posts go into the page's BatchGet (their liveness), when its
  // item's recent ids spare the edge Queries; otherwise its edges are read at once, beside it.
  const bookmarked = mine ? await opts.viewer!.bookmarks : [];
  const own = onPage && !mine ? loadEdges(viewerId, true, limit, { bookmarks: opts.viewer?.bookmarks, blocked: opts.viewer?.blocked, hidden: opts.hidden }) : undefined;
  own?.catch(() => undefined);
  const found = await batchGet([
    ...unique.filter((id) => !opts.known?.has(id)).map((id) => keys.user(id)),
    ...(opts.also ?? []),
    ...bookmarked.map((id) => keys.post(id)),
  ]);
  const shown = bookmarkShown(found, mine ? await opts.hidden : undefined);
  const ownEdges = async (): Promise<UserEdges> => (mine
    ? {
      followers: mine.followers.slice(0, limit),
      following: mine.following.slice(0, limit),
      bookmarks: (await withoutLocked(viewerId, bookmarked.filter(shown), found)).slice(0, limit),
      blocked_users: (await opts.viewer!.blocked).slice(0, limit),
    }
    : own!);
  const items = new Map(unique.flatMap((id) => {
    const item = opts.known?.get(id) ?? (found.get(itemKey(keys.user(id))) as UserItem | undefined);
    return item ? [[id, item] as const] : [];
  }));
  // A private account's lists are [] to all but its owner and approved followers (contract
  // section 18): the follow keys a page asked for already answer it, others cost one BatchGet
  // of the private ones alone.
  const asked = new Set((opts.also ?? []).map(itemKey));
  const locked = await privateUnfollowed(viewerId, [...items.values()].map((i) => ({ id: i.id, isPrivate: i.isPrivate })), found, asked);
  const edges = new Map<string, UserEdges>();
  await Promise.all([...items].map(async ([id, item]) => {
    if (locked.has(id)) { edges.set(id, { followers: [], following: [] }); return; }
    const recent = id === viewerId || limit > EMBED_LIMIT.list ? undefined : recentEdges(item);
    const chosen = recent ? { followers: recent.followers.slice(0, limit), following: recent.following.slice(0, limit) } : undefined;
    edges.set(id, id === viewerId ? await ownEdges() : chosen ?? await loadEdges(id, false, limit));
  }));
  const users = new Map<string, BaseUser>();
  for (const [id, item] of items) users.set(id, toBaseUser(item, edges.get(id)!, id === viewerId));
  return { users, found };
}
