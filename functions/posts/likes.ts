import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { id, userListQuery } from '../../lib/fields';
import { NotFound } from '../../lib/errors';
import { getPost } from '../../lib/posts/model';
import { likers } from '../../lib/posts/likers';
import { decodeCursor } from '../../lib/graph/cursor';
import { followKeys, followReads, relationsFrom } from '../../lib/graph/relations';
import { presentIds } from '../../lib/graph/present';

export const params = z.strictObject({ post_id: id() });
export const query = userListQuery();

export const handler = http({ params, query }, async ({ params, query, caller }) => {
  if (query.cursor !== undefined) decodeCursor(query.cursor); // a bad cursor is a 400 before any read
  // The caller may be among the likers; its own object (its live bookmarks) is then read
  // beside the users, one round trip more on that page only (lib/graph/present.ts).
  const [post, page, me, lists, hidden] = await Promise.all([
    getPost(params.post_id), likers(params.post_id, query.limit, query.cursor), caller.user(), caller.blockLists(), caller.hidden(),
  ]);
  // To a user its author blocked (or an author hidden from everyone), the post does not exist.
  if (!post || lists.blockedBy.includes(post.author)) throw new NotFound('post');
  // Round trip 2: one BatchGet of the likers' items (with their recent ids) and the caller's
  // follow edges to them; blocks come from the caller's block lists (lib/graph/relations.ts).
  const ids = page.ids.filter((uid) => !hidden.has(uid));
  const reads = followReads(me);
  const { users, found } = await presentIds(ids, caller.userId, { also: followKeys(caller.userId, ids), consistent: reads.consistent, known: new Map([[me.id, me]]) });
  const rel = relationsFrom(caller.userId, ids, found, lists, reads.recentFollowing);
  const likes = ids.flatMap((uid) => {
    const user = users.get(uid);
    return user ? [{ ...user, isFollowing: rel.get(uid)!.isFollowing }] : [];
  });
  return { body: { likes, pagination: { hasMore: page.hasMore, nextCursor: page.nextCursor } } };
});
