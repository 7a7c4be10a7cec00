import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { identifier } from '../../lib/fields';
import { NotFound, PrivateAccount } from '../../lib/errors';
import { resolveUserId } from '../../lib/users/repo';
import { userAndRelation } from '../../lib/graph/lookup';
import { authorPosts } from '../../lib/posts/by-author';
import { EAGER_DEPTH, pageQuery, pageWindow, pagination } from '../../lib/posts/pages';
import { presentPosts } from '../../lib/posts/present';

export const params = z.strictObject({ identifier: identifier() });
export const query = pageQuery();

export const handler = http({ params, query }, async ({ params, query, caller }) => {
  const authorId = await resolveUserId(params.identifier);
  if (!authorId) throw new NotFound('user');
  const { skip } = pageWindow(query.page, query.limit);
  const [{ user: found, relation }, early] = await Promise.all([
    userAndRelation(caller.userId, authorId),
    skip < EAGER_DEPTH ? authorPosts(authorId, query.page, query.limit) : undefined,
  ]);
  // To someone they blocked, the author and their posts do not exist.
  const author = found && !relation.blocksCaller ? found : undefined;
  if (!author) throw new NotFound('user');
  // A private account's posts: 403 PRIVATE_ACCOUNT to all but its owner and approved followers (contract section 18).
  if (author.isPrivate === true && authorId !== caller.userId && !relation.isFollowing) throw new PrivateAccount();
  const total = author.postsCount ?? 0;
  const items = early ?? (skip < total ? await authorPosts(authorId, query.page, query.limit) : []);
  return {
    body: {
      posts: await presentPosts(items, caller.userId),
      pagination: pagination(query.page, query.limit, total),
    },
  };
});
