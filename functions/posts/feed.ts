import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { feedCursor, intParam } from '../../lib/fields';
import { readHomeFeed } from '../../lib/feed/read';
import { presentAhead, presentPosts } from '../../lib/posts/present';

export const query = z.strictObject({
  limit: intParam(1, 50, 10),
  cursor: z.optional(feedCursor()),
});

export const handler = http({ query }, async ({ query, caller }) => {
  // The entries' likers and flags are read beside their posts (2 round trips, not 3).
  const ahead = presentAhead(caller.userId);
  const page = await readHomeFeed(caller, query.limit, query.cursor, ahead.start);
  const posts = await presentPosts(page.posts, caller.userId, undefined, ahead);
  return { body: { posts, pagination: { hasMore: page.hasMore, nextCursor: page.nextCursor } } };
});
