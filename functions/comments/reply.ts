import * as z from 'zod/mini';
import { http, type ApiReply } from '../../lib/http';
import { id } from '../../lib/fields';
import { NotFound, ReplyDepthExceeded, ValidationError } from '../../lib/errors';
import { idempotencyItem, idempotent } from '../../lib/http/idempotency';
import { assertMayAct, resolveStandpoint } from '../../lib/comments/access';
import { commentText } from '../../lib/comments/fields';
import { createReply } from '../../lib/comments/create';
import { getComment, toComment, type CommentItem } from '../../lib/comments/model';
import { textMentions } from '../../lib/users/mentions';

export const params = z.strictObject({ comment_id: id() });
export const body = z.strictObject({ text: commentText(), replyTo: z.optional(id()) });

const created = (c: CommentItem): ApiReply => ({
  status: 201,
  body: { message: 'Reply created successfully', data: toComment(c, []) },
});

export const handler = http({ params, body, idempotent }, async (req) => {
  const { params, body, caller, trace } = req;
  const answers = body.replyTo && body.replyTo !== params.comment_id ? body.replyTo : undefined;
  const [, parent, answered, mentions] = await Promise.all([
    caller.user(),
    getComment(params.comment_id),
    answers ? getComment(answers) : undefined,
    textMentions(body.text, 'text'),
  ]);
  // Existence and blocks first (404), then the shape of the request (400), then the caller's own blocks (403).
  const inThread = answered?.parentComment === params.comment_id ? [answered.author] : [];
  const thread = await resolveStandpoint(caller.userId, parent, inThread);
  if (thread.standing.hidden || thread.standing.locked) throw new NotFound('comment');
  if (thread.comment.parentComment) throw new ReplyDepthExceeded();
  if (answers && answered?.parentComment !== thread.comment.id) {
    throw ValidationError.field('replyTo', 'must be the id of a reply to this comment');
  }
  assertMayAct(thread.standing, 'comment');
  const reply = await createReply(
    { parent: thread.comment, replyTo: answers ?? thread.comment.id, replyToAuthor: answered?.author, author: caller.userId, text: body.text, mentions },
    { trace, payload: { params, body } },
    (c) => idempotencyItem(req, created(c)),
  );
  return created(reply);
});
