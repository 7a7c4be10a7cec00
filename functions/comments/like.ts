import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { id } from '../../lib/fields';
import { assertMayAct, loadStandpoint } from '../../lib/comments/access';
import { setLike } from '../../lib/comments/like';

export const params = z.strictObject({ comment_id: id() });

export const handler = http({ params }, async ({ params, caller, trace }) => {
  const [, standpoint] = await Promise.all([caller.user(), loadStandpoint(caller.userId, params.comment_id)]);
  assertMayAct(standpoint.standing, 'comment');
  const likesCount = await setLike(standpoint, caller.userId, true, { trace, payload: { params } });
  return { body: { message: 'Comment liked successfully', isLiked: true, likesCount } };
});
