import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { id } from '../../lib/fields';
import { NotFound } from '../../lib/errors';
import * as keys from '../../lib/keys';
import { getPost } from '../../lib/posts/model';
import { threadPage } from '../../lib/comments/list';
import { threadQuery } from '../../lib/comments/fields';
import { chainAuthors, getComment } from '../../lib/comments/model';
import { assertNotLocked } from '../../lib/graph/visibility';

export const params = z.strictObject({ comment_id: id() });
export const query = threadQuery();

const gone = () => new NotFound('comment');

export const handler = http({ params, query }, async ({ params, query, caller }) => {
  const { comments, pagination } = await threadPage({
    callerId: caller.userId,
    partition: keys.repliesOf(params.comment_id),
    cursor: query.cursor,
    limit: query.limit,
    head: getComment(params.comment_id).then((comment) => {
      if (!comment) throw gone();
      return comment;
    }),
    headAuthors: chainAuthors,
    hiddenEitherWay: (comment) => [comment.author],
    // A comment of a deleted post, or a reply of a deleted comment, is gone too.
    checkHead: async (comment) => {
      const [post, parent] = await Promise.all([
        getPost(comment.post),
        comment.parentComment ? getComment(comment.parentComment) : undefined,
        // A private account's post: 404 to all but its owner and approved followers (contract section 18).
        assertNotLocked(caller.userId, [comment.postAuthor].filter((a): a is string => !!a), 'comment'),
      ]);
      if (!post || (comment.parentComment && !parent)) throw gone();
    },
    hidden: gone,
  });
  return { body: { message: 'Replies retrieved successfully', data: { replies: comments, pagination } } };
});
