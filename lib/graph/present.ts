// User objects for a list of ids: the user items in one BatchGet, and the embedded edge
// arrays of each, all in the same round trip (they need only the ids). Deleted users are
// simply absent from the result.
import { EMBED_LIMIT, loadEdges } from '../users/repo';
import { toBaseUser, type BaseUser, type UserItem } from '../users/model';
import { batchGet, itemKey, type Key } from '../db/batch';
import * as keys from '../keys';

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
  /** The viewer's bookmark ids read ahead (loadEdges), used if the viewer is among the ids. */
  ownBookmarks?: Promise<string[]>;
  /** User items the caller has already read: not read again. */
  known?: Map<string, UserItem>;
}

export async function presentIds(ids: string[], viewerId: string, opts: PresentOptions = {}): Promise<Presented> {
  const unique = [...new Set(ids)];
  const limit = opts.limit ?? EMBED_LIMIT.list;
  const [found, edges] = await Promise.all([
    batchGet([...unique.filter((id) => !opts.known?.has(id)).map((id) => keys.user(id)), ...(opts.also ?? [])]),
    Promise.all(unique.map((id) => loadEdges(id, id === viewerId, limit, id === viewerId ? { bookmarks: opts.ownBookmarks } : {}))),
  ]);
  const users = new Map<string, BaseUser>();
  unique.forEach((id, i) => {
    const item = opts.known?.get(id) ?? (found.get(itemKey(keys.user(id))) as UserItem | undefined);
    if (item) users.set(id, toBaseUser(item, edges[i]!, id === viewerId));
  });
  return { users, found };
}
