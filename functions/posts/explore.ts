import { http } from '../../lib/http';
import { explore } from '../../lib/posts/explore';
import { pageQuery, pagination } from '../../lib/posts/pages';
import { presentPosts } from '../../lib/posts/present';

export const query = pageQuery();

export const handler = http({ query }, async ({ query, caller }) => {
  const { posts, totalPosts } = await explore(caller, query.page, query.limit, (items) => presentPosts(items, caller.userId));
  return { body: { posts, pagination: pagination(query.page, query.limit, totalPosts) } };
});
