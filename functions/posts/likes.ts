import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { id, userListQuery } from '../../lib/fields';
import { NotFound } from '../../lib/errors';
import { getPost } from '../../lib/posts/model';
import { likers } from '../../lib/posts/likers';
import { decodeCursor } from '../../lib/graph/cursor';
import { blockedEitherWay, readRelations, relationKeys } from '../../lib/graph/relations';
import { presentIds } from '../../lib/graph/present';

export const params = z.strictObject({ post_id: id() });
export const query = userListQuery();

export const handler = http({ params, query }, async ({ params, query, caller }) => {
  if (query.cursor !== undefined) decodeCursor(query.cursor); // a bad cursor is a 400 before any read
  // The caller may be among the likers; its own object (its live bookmarks) is then read
  // beside the users, one round trip more on that page only (lib/graph/present.ts).
  const [post, page] = await Promise.all([getPost(params.post_id), likers(params.post_id, query.limit, query.cursor)]);
  if (!post) throw new NotFound('post');
  // Round trip 2: one BatchGet of the likers' items (with their recent ids) and the author's
  // and every liker's relation to the caller.
  const { users, found } = await presentIds(page.ids, caller.userId, { also: relationKeys(caller.userId, [post.author, ...page.ids]) });
  const rel = readRelations(caller.userId, [post.author, ...page.ids], found);
  if (rel.get(post.author)!.blocksCaller) throw new NotFound('post');
  const likes = page.ids.flatMap((uid) => {
    const user = users.get(uid);
    const r = rel.get(uid);
    if (!user || blockedEitherWay(r)) return [];
    return [{ ...user, isFollowing: r!.isFollowing }];
  });
  return { body: { likes, pagination: { hasMore: page.hasMore, nextCursor: page.nextCursor } } };
});
