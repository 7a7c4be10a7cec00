import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { id } from '../../lib/fields';
import { NotFound } from '../../lib/errors';
import * as keys from '../../lib/keys';
import { getPost } from '../../lib/posts/model';
import { threadPage } from '../../lib/comments/list';
import { threadQuery } from '../../lib/comments/fields';
import { assertNotLocked } from '../../lib/graph/visibility';

export const params = z.strictObject({ post_id: id() });
export const query = threadQuery();

export const handler = http({ params, query }, async ({ params, query, caller }) => {
  const { comments, pagination } = await threadPage({
    callerId: caller.userId,
    partition: keys.commentsOf(params.post_id),
    cursor: query.cursor,
    limit: query.limit,
    head: getPost(params.post_id).then((post) => {
      if (!post) throw new NotFound('post');
      return post;
    }),
    headAuthors: (post) => [post.author],
    // A private account's post: 404 to all but its owner and approved followers (contract section 18).
    checkHead: (post) => assertNotLocked(caller.userId, [post.author], 'post'),
    hidden: () => new NotFound('post'),
  });
  return { body: { message: 'Comments retrieved successfully', data: { comments, pagination } } };
});
