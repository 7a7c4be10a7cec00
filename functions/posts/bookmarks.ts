import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { intParam, listCursor } from '../../lib/fields';
import * as keys from '../../lib/keys';
import { batchGet, itemKey } from '../../lib/db/batch';
import { edgePage } from '../../lib/graph/lists';
import { presentAhead, presentPosts } from '../../lib/posts/present';
import type { PostItem } from '../../lib/posts/model';
import { privateUnfollowedIds } from '../../lib/graph/visibility';

// Cursor-based like the user lists, with the post lists' limit (contract section 8).
export const query = z.strictObject({ limit: intParam(1, 50, 10), cursor: z.optional(listCursor()) });

export const handler = http({ query }, async ({ query, caller }) => {
  // Round trip 1: a page of bookmark edges, newest bookmark first, beside the caller's block lists.
  const [page, hidden] = await Promise.all([edgePage('bookmarks', caller.userId, query.limit, query.cursor), caller.hidden()]);
  // Round trip 2: the posts, beside their likers and the caller's flags (as explore shows
  // them; started with the ids, not after the posts: lib/posts/present.ts presentAhead). A
  // deleted post, or one whose author is on either side of a block with the caller, is left
  // out; the cursor never moves because of it (lib/graph/lists.ts).
  const ahead = presentAhead(caller.userId);
  ahead.start(page.ids);
  const found = page.ids.length ? await batchGet<PostItem>(page.ids.map(keys.post)) : new Map<string, PostItem>();
  const items = page.ids.map((postId) => found.get(itemKey(keys.post(postId))))
    .filter((p): p is PostItem => p !== undefined && !hidden.has(p.author));
  // Posts of private accounts the caller does not follow are left out (contract section 18),
  // checked beside their presentation.
  const [posts, locked] = await Promise.all([
    presentPosts(items, caller.userId, undefined, ahead),
    privateUnfollowedIds(caller.userId, items.map((p) => p.author)),
  ]);
  return { body: { posts: posts.filter((p) => !locked.has(p.author)), pagination: page.pagination } };
});
