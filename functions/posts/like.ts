import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { id } from '../../lib/fields';
import { existingPost } from '../../lib/posts/access';
import { asSeen, likePost } from '../../lib/posts/edges';

export const params = z.strictObject({ post_id: id() });

export const handler = http({ params }, async ({ params, caller, trace }) => {
  // Blocks between the caller and the author are checked in the write's own transaction.
  const [, post] = await Promise.all([caller.user(), existingPost(params.post_id)]);
  // The count comes from the write: its transaction is conditioned on the count read with the
  // post, so seen +/- 1 is exact at the moment it committed (lib/db/transact.ts countedChange).
  const { count } = await asSeen({ post, callerId: caller.userId, trace, payload: { params } }, likePost);
  return { body: { message: 'Post liked successfully', isLiked: true, likesCount: count } };
});
