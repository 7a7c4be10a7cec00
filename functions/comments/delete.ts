import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { id } from '../../lib/fields';
import { Forbidden, NotFound } from '../../lib/errors';
import { loadStandpoint } from '../../lib/comments/access';
import { deleteComment } from '../../lib/comments/delete';

export const params = z.strictObject({ comment_id: id() });

export const handler = http({ params }, async ({ params, caller, trace }) => {
  const [, { comment, standing }] = await Promise.all([caller.user(), loadStandpoint(caller.userId, params.comment_id)]);
  // Owners may always remove it: a block never keeps anyone's words on someone's post.
  if (caller.userId !== comment.author && caller.userId !== comment.postAuthor) {
    if (standing.hidden) throw new NotFound('comment');
    throw new Forbidden('Only the author of the comment or of the post can delete it.');
  }
  await deleteComment(comment, { trace, payload: { params }, actorId: caller.userId });
  return { body: { message: comment.parentComment ? 'Reply deleted successfully' : 'Comment deleted successfully' } };
});
