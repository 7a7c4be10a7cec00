import * as z from 'zod/mini';
import { http, type ApiReply } from '../../lib/http';
import { id } from '../../lib/fields';
import { NotFound } from '../../lib/errors';
import { idempotencyItem, idempotent } from '../../lib/http/idempotency';
import { getPost } from '../../lib/posts/model';
import { relations } from '../../lib/graph/relations';
import { privateUnfollowedIds } from '../../lib/graph/visibility';
import { assertMayAct, standing } from '../../lib/comments/access';
import { commentText } from '../../lib/comments/fields';
import { createComment } from '../../lib/comments/create';
import { toComment, type CommentItem } from '../../lib/comments/model';
import { textMentions } from '../../lib/users/mentions';

export const params = z.strictObject({ post_id: id() });
export const body = z.strictObject({ text: commentText() });

const created = (c: CommentItem): ApiReply => ({
  status: 201,
  body: { message: 'Comment created successfully', comment: toComment(c, []) },
});

export const handler = http({ params, body, idempotent }, async (req) => {
  const { params, body, caller, trace } = req;
  const [, post, mentions] = await Promise.all([caller.user(), getPost(params.post_id), textMentions(body.text, 'text')]);
  if (!post) throw new NotFound('post');
  const [rel, locked] = await Promise.all([relations(caller.userId, [post.author]), privateUnfollowedIds(caller.userId, [post.author])]);
  assertMayAct(standing(rel, [post.author], locked.size > 0), 'post');
  const comment = await createComment(
    { post, author: caller.userId, text: body.text, mentions },
    { trace, payload: { params, body } },
    (c) => idempotencyItem(req, created(c)),
  );
  return created(comment);
});
