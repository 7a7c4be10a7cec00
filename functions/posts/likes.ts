import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { id, userListQuery } from '../../lib/fields';
import { NotFound } from '../../lib/errors';
import { getPost } from '../../lib/posts/model';
import { decodeCursor, likers } from '../../lib/posts/likers';
import { blockedEitherWay, relations } from '../../lib/graph/relations';
import { EMBED_LIMIT, getUsers, loadEdges } from '../../lib/users/repo';
import { toBaseUser } from '../../lib/users/model';

export const params = z.strictObject({ post_id: id() });
export const query = userListQuery();

export const handler = http({ params, query, summary: 'Users who liked a post' }, async ({ params, query, caller }) => {
  if (query.cursor !== undefined) decodeCursor(query.cursor); // a bad cursor is a 400 before any read
  const [post, page] = await Promise.all([getPost(params.post_id), likers(params.post_id, query.limit, query.cursor)]);
  if (!post) throw new NotFound('post');
  // Round trip 2: the author's and every liker's relation in one BatchGet, the likers' items, their edges.
  const [rel, users, edges] = await Promise.all([
    relations(caller.userId, [post.author, ...page.ids]),
    getUsers(page.ids),
    Promise.all(page.ids.map((uid) => loadEdges(uid, uid === caller.userId, EMBED_LIMIT.list))),
  ]);
  if (rel.get(post.author)!.blocksCaller) throw new NotFound('post');
  const likes = page.ids.flatMap((uid, i) => {
    const user = users.get(uid);
    const r = rel.get(uid);
    if (!user || blockedEitherWay(r)) return [];
    return [{ ...toBaseUser(user, edges[i]!, uid === caller.userId), isFollowing: r!.isFollowing }];
  });
  return { body: { likes, pagination: { hasMore: page.hasMore, nextCursor: page.nextCursor } } };
});
