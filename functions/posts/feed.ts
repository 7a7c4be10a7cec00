import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { intParam } from '../../lib/fields';
import { readHomeFeed } from '../../lib/feed/read';
import { presentPosts } from '../../lib/posts/present';

export const query = z.strictObject({
  limit: intParam(1, 50, 10),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
});

export const handler = http({ query }, async ({ query, caller }) => {
  const page = await readHomeFeed(caller, query.limit, query.cursor);
  const posts = await presentPosts(page.posts, caller.userId);
  return { body: { posts, pagination: { hasMore: page.hasMore, nextCursor: page.nextCursor } } };
});
