import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { identifier } from '../../lib/fields';
import { NotFound } from '../../lib/errors';
import { getUser, resolveUserId } from '../../lib/users/repo';
import { relations } from '../../lib/graph/relations';
import { authorPosts } from '../../lib/posts/by-author';
import { pageQuery, pagination } from '../../lib/posts/pages';
import { presentPosts } from '../../lib/posts/present';

export const params = z.strictObject({ identifier: identifier() });
export const query = pageQuery();

export const handler = http({ params, query, summary: "A user's posts" }, async ({ params, query, caller }) => {
  const authorId = await resolveUserId(params.identifier);
  if (!authorId) throw new NotFound('user');
  const [author, rel, items] = await Promise.all([
    getUser(authorId),
    relations(caller.userId, [authorId]),
    authorPosts(authorId, query.page, query.limit),
  ]);
  // To someone they blocked, the author and their posts do not exist.
  if (!author || rel.get(authorId)!.blocksCaller) throw new NotFound('user');
  return {
    body: {
      posts: await presentPosts(items, caller.userId),
      pagination: pagination(query.page, query.limit, author.postsCount ?? 0),
    },
  };
});
