import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { intParam } from '../../lib/fields';
import { FEED_CURSOR_PATTERN, readHomeFeed } from '../../lib/feed/read';
import { presentAhead, presentPosts } from '../../lib/posts/present';

export const query = z.strictObject({
  limit: intParam(1, 50, 10),
  cursor: z.optional(z.string().check(
    z.regex(new RegExp(FEED_CURSOR_PATTERN), 'is not a valid cursor: pass the nextCursor of a previous page'),
    z.meta({ description: 'opaque: the nextCursor of the previous page' }),
  )),
});

export const handler = http({ query }, async ({ query, caller }) => {
  // The entries' likers and flags are read beside their posts (2 round trips, not 3).
  const ahead = presentAhead(caller.userId);
  const page = await readHomeFeed(caller, query.limit, query.cursor, ahead.start);
  const posts = await presentPosts(page.posts, caller.userId, undefined, ahead);
  return { body: { posts, pagination: { hasMore: page.hasMore, nextCursor: page.nextCursor } } };
});
