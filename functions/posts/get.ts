import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { id } from '../../lib/fields';
import { NotFound } from '../../lib/errors';
import { getPost, toPostView } from '../../lib/posts/model';
import { LIKES_EMBED, recentLikers, viewerFlags } from '../../lib/posts/present';
import { relations } from '../../lib/graph/relations';
import { privateUnfollowedIds } from '../../lib/graph/visibility';

export const params = z.strictObject({ post_id: id() });

export const handler = http({ params }, async ({ params, caller }) => {
  // Everything that needs only the post id goes out at once; the author's block check follows.
  const [post, likes, flags] = await Promise.all([
    getPost(params.post_id),
    recentLikers(params.post_id, LIKES_EMBED.single),
    viewerFlags(caller.userId, [params.post_id]),
  ]);
  if (!post) throw new NotFound('post');
  // Its author's blocks and (contract section 18) privacy, in one round trip.
  const [rels, locked] = await Promise.all([relations(caller.userId, [post.author]), privateUnfollowedIds(caller.userId, [post.author])]);
  if (rels.get(post.author)!.blocksCaller || locked.size) throw new NotFound('post');
  return { body: { post: toPostView(post, likes, flags.get(post.id)!) } };
});
