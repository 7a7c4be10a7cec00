import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { id } from '../../lib/fields';
import { NotFound } from '../../lib/errors';
import { loadStandpoint } from '../../lib/comments/access';
import { setLike } from '../../lib/comments/like';

export const params = z.strictObject({ comment_id: id() });

export const handler = http({ params }, async ({ params, caller, trace }) => {
  const [, standpoint] = await Promise.all([caller.user(), loadStandpoint(caller.userId, params.comment_id)]);
  // Taking a like back stays possible for a blocker; to the blocked the comment does not exist.
  if (standpoint.standing.hidden) throw new NotFound('comment');
  const likesCount = await setLike(standpoint, caller.userId, false, { trace, payload: { params } });
  return { body: { message: 'Comment unliked successfully', isLiked: false, likesCount } };
});
