import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { id } from '../../lib/fields';
import { existingPost } from '../../lib/posts/access';
import { asSeen, bookmarkPost } from '../../lib/posts/edges';

export const params = z.strictObject({ post_id: id() });

export const handler = http({ params }, async ({ params, caller, trace }) => {
  // Blocks between the caller and the author are checked in the write's own transaction.
  const [, post] = await Promise.all([caller.user(), existingPost(params.post_id)]);
  await asSeen({ post, callerId: caller.userId, trace, payload: { params } }, bookmarkPost);
  return { body: { message: 'Post bookmarked successfully', isBookmarked: true } };
});
