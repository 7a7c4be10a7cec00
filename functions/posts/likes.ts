import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { id, userListQuery } from '../../lib/fields';
import { NotFound } from '../../lib/errors';
import type { PostItem } from '../../lib/posts/model';
import { itemKey } from '../../lib/db/batch';
import * as keys from '../../lib/keys';
import { likers } from '../../lib/posts/likers';
import { decodeCursor } from '../../lib/graph/cursor';
import { listedUsers } from '../../lib/graph/user-list';
import { assertNotLocked } from '../../lib/graph/visibility';

export const params = z.strictObject({ post_id: id() });
export const query = userListQuery();

export const handler = http({ params, query }, async ({ params, query, caller }) => {
  if (query.cursor !== undefined) decodeCursor(query.cursor); // a bad cursor is a 400 before any read
  // Round trip 1: the likers' page ∥ the caller's bookmark ids (read ahead: if the caller is
  // on the page, its own object's live bookmarks are checked in round 2) ∥ the caller's block
  // lists (read by authentication). Round trip 2: one BatchGet of the post, the likers' items
  // (with their recent ids) and the caller's follow edges to them (lib/graph/relations.ts).
  const postId = params.post_id.toUpperCase();
  const page = likers(params.post_id, query.limit, query.cursor, caller.hidden());
  page.catch(() => undefined);
  const { users: likes, found, lists } = await listedUsers(caller, page.then((p) => p.ids), [keys.post(postId)]);
  const post = found.get(itemKey(keys.post(postId))) as PostItem | undefined;
  // To a user its author blocked (or an author hidden from everyone), the post does not exist.
  if (!post || lists.blockedBy.includes(post.author)) throw new NotFound('post');
  // A private account's post: 404 to all but its owner and approved followers (contract section 18).
  await assertNotLocked(caller.userId, [post.author], 'post');
  const { hasMore, nextCursor } = await page;
  return { body: { likes, pagination: { hasMore, nextCursor } } };
});
