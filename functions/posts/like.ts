import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { id } from '../../lib/fields';
import { existingPost } from '../../lib/posts/access';
import { likePost } from '../../lib/posts/edges';
import { getPost } from '../../lib/posts/model';

export const params = z.strictObject({ post_id: id() });

export const handler = http({ params }, async ({ params, caller, trace }) => {
  // Blocks between the caller and the author are checked in the write's own transaction.
  const [, post] = await Promise.all([caller.user(), existingPost(params.post_id)]);
  await likePost({ post, callerId: caller.userId, trace, payload: { params } });
  // Read back: racing likes of others make any count computed here stale.
  const now = await getPost(post.id);
  return { body: { message: 'Post liked successfully', isLiked: true, likesCount: now?.likesCount ?? 0 } };
});
