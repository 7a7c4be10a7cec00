import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { id } from '../../lib/fields';
import { Forbidden } from '../../lib/errors';
import { visiblePost } from '../../lib/posts/access';
import { caption } from '../../lib/posts/fields';
import { editPostCaption } from '../../lib/posts/write';
import { toPostView } from '../../lib/posts/model';
import { LIKES_EMBED, recentLikers, viewerFlags } from '../../lib/posts/present';

export const params = z.strictObject({ post_id: id() });
export const body = z.strictObject({ caption: caption() });

// Its answer embeds likers: scrubbed of users hidden from the caller like a GET's (contract section 6).
export const handler = http({ params, body, scrubHidden: true }, async ({ params, body, caller, trace }) => {
  // The post as the caller may see it (404 when missing or hidden by a block), the likers and
  // the caller's flags of the answer, all at once; only the author may edit.
  const [, post, likes, flags] = await Promise.all([
    caller.user(),
    visiblePost(params.post_id, caller.userId),
    recentLikers(params.post_id, LIKES_EMBED.single),
    viewerFlags(caller.userId, [params.post_id]),
  ]);
  if (post.author !== caller.userId) throw new Forbidden('Only the author can edit a post.');
  const updated = await editPostCaption(post, body.caption, trace, { params, body });
  return { body: { message: 'Post updated successfully', post: toPostView(updated, likes, flags.get(post.id)!) } };
});
