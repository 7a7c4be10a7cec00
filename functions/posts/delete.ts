import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { id } from '../../lib/fields';
import { Forbidden } from '../../lib/errors';
import { visiblePost } from '../../lib/posts/access';
import { deletePost } from '../../lib/posts/write';

export const params = z.strictObject({ post_id: id() });

export const handler = http({ params }, async ({ params, caller, trace }) => {
  const [me, post] = await Promise.all([caller.user(), visiblePost(params.post_id, caller.userId)]);
  if (post.author !== caller.userId) throw new Forbidden('Only the author can delete a post.');
  await deletePost(post, trace, { params }, caller.userId, [], me.isPrivate === true);
  return { body: { message: 'Post deleted successfully' } };
});
