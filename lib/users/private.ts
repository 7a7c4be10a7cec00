// Which of some accounts are private ones a viewer does not follow (contract section 18), from
// their items and the viewer's follow keys in one BatchGet. Owned here, below the graph, so the
// own object's `bookmarks` (lib/users/repo.ts) and every list (lib/graph/visibility.ts) share it.
import { batchGet, itemKey, type Key } from '../db/batch';
import * as keys from '../keys';

export async function privateUnfollowedIds(viewerId: string, ids: string[]): Promise<Set<string>> {
  const others = [...new Set(ids)].filter((id) => id !== viewerId);
  if (!others.length) return new Set();
  const wanted: Key[] = others.flatMap((id) => [keys.user(id), keys.follow(viewerId, id)]);
  const found = await batchGet(wanted, { projection: 'isPrivate, createdAt' });
  return new Set(others.filter((id) => (found.get(itemKey(keys.user(id))) as { isPrivate?: boolean } | undefined)?.isPrivate === true
    && !found.has(itemKey(keys.follow(viewerId, id)))));
}
