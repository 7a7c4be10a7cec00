import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { id, userListQuery } from '../../lib/fields';
import { NotFound } from '../../lib/errors';
import type { PostItem } from '../../lib/posts/model';
import { itemKey } from '../../lib/db/batch';
import * as keys from '../../lib/keys';
import { EMBED_LIMIT, bookmarkIds } from '../../lib/users/repo';
import { likers } from '../../lib/posts/likers';
import { decodeCursor } from '../../lib/graph/cursor';
import { followKeys, followReads, relationsFrom } from '../../lib/graph/relations';
import { presentIds } from '../../lib/graph/present';

export const params = z.strictObject({ post_id: id() });
export const query = userListQuery();

export const handler = http({ params, query }, async ({ params, query, caller }) => {
  if (query.cursor !== undefined) decodeCursor(query.cursor); // a bad cursor is a 400 before any read
  // Round trip 1: the likers' page ∥ the caller's bookmark ids (read ahead: if the caller is
  // on the page, its own object's live bookmarks are checked in round 2) ∥ the caller's block
  // lists (read by authentication). Round trip 2: one BatchGet of the post, the likers' items
  // (with their recent ids) and the caller's follow edges to them (lib/graph/relations.ts).
  const postId = params.post_id.toUpperCase();
  const ownBookmarks = bookmarkIds(caller.userId, EMBED_LIMIT.list);
  ownBookmarks.catch(() => undefined);
  const [page, me, lists, hidden] = await Promise.all([
    likers(params.post_id, query.limit, query.cursor), caller.user(), caller.blockLists(), caller.hidden(),
  ]);
  const ids = page.ids.filter((uid) => !hidden.has(uid));
  const reads = followReads(me);
  const { users, found } = await presentIds(ids, caller.userId, {
    also: [keys.post(postId), ...followKeys(caller.userId, ids)],
    consistent: reads.consistent,
    known: new Map([[me.id, me]]),
    viewer: { item: me, bookmarks: ownBookmarks, blocked: Promise.resolve(lists.blocked) },
  });
  const post = found.get(itemKey(keys.post(postId))) as PostItem | undefined;
  // To a user its author blocked (or an author hidden from everyone), the post does not exist.
  if (!post || lists.blockedBy.includes(post.author)) throw new NotFound('post');
  const rel = relationsFrom(caller.userId, ids, found, lists, reads.recentFollowing);
  const likes = ids.flatMap((uid) => {
    const user = users.get(uid);
    return user ? [{ ...user, isFollowing: rel.get(uid)!.isFollowing }] : [];
  });
  return { body: { likes, pagination: { hasMore: page.hasMore, nextCursor: page.nextCursor } } };
});
