import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { id } from '../../lib/fields';
import { NotFound } from '../../lib/errors';
import { loadThread } from '../../lib/comments/access';
import { setLike } from '../../lib/comments/like';

export const params = z.strictObject({ comment_id: id() });

export const handler = http({ params }, async ({ params, caller, trace }) => {
  const [, thread] = await Promise.all([caller.user(), loadThread(caller.userId, params.comment_id)]);
  // Taking a like back stays possible for a blocker; to the blocked the comment does not exist.
  if (thread.standing.hidden) throw new NotFound('comment');
  const likesCount = await setLike(thread, caller.userId, false, { trace, payload: { params } });
  return { body: { message: 'Comment unliked successfully', isLiked: false, likesCount } };
});
