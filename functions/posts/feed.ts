import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { intParam } from '../../lib/fields';
import { FEED_CURSOR_PATTERN, readHomeFeed } from '../../lib/feed/read';
import { presentPosts } from '../../lib/posts/present';

export const query = z.strictObject({
  limit: intParam(1, 50, 10),
  cursor: z.optional(z.string().check(
    z.regex(new RegExp(FEED_CURSOR_PATTERN), 'is not a valid cursor: pass the nextCursor of a previous page'),
    z.meta({ description: 'opaque: the nextCursor of the previous page' }),
  )),
});

export const handler = http({ query }, async ({ query, caller }) => {
  const page = await readHomeFeed(caller, query.limit, query.cursor);
  const posts = await presentPosts(page.posts, caller.userId);
  return { body: { posts, pagination: { hasMore: page.hasMore, nextCursor: page.nextCursor } } };
});
