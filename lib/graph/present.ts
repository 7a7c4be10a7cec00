// User objects for a list of ids: the user items in one BatchGet, and the embedded edge
// arrays of each, all in the same round trip (they need only the ids). Deleted users are
// simply absent from the result.
import { EMBED_LIMIT, getUsers, loadEdges } from '../users/repo';
import { toBaseUser, type BaseUser, type UserItem } from '../users/model';

export interface Presented {
  users: Map<string, BaseUser>;
  items: Map<string, UserItem>;
}

export async function presentIds(ids: string[], viewerId: string, limit: number = EMBED_LIMIT.list): Promise<Presented> {
  const unique = [...new Set(ids)];
  const [items, edges] = await Promise.all([
    getUsers(unique),
    Promise.all(unique.map((id) => loadEdges(id, id === viewerId, limit))),
  ]);
  const users = new Map<string, BaseUser>();
  unique.forEach((id, i) => {
    const item = items.get(id);
    if (item) users.set(id, toBaseUser(item, edges[i]!, id === viewerId));
  });
  return { users, items };
}
