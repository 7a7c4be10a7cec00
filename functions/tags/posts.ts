import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { feedCursor, intParam } from '../../lib/fields';
import { tagName } from '../../lib/tags/fields';
import { tagPage } from '../../lib/posts/tag-page';
import { presentPosts } from '../../lib/posts/present';

export const params = z.strictObject({ tag: tagName() });
export const query = z.strictObject({ limit: intParam(1, 50, 20), cursor: z.optional(feedCursor()) });

export const handler = http({ params, query }, async ({ params, query, caller }) => {
  const page = await tagPage(caller, params.tag, query.limit, query.cursor);
  const posts = await presentPosts(page.posts, caller.userId);
  return { body: { posts, pagination: { hasMore: page.hasMore, nextCursor: page.nextCursor } } };
});
