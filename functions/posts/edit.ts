import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { id } from '../../lib/fields';
import { Forbidden, ValidationError } from '../../lib/errors';
import { visiblePost } from '../../lib/posts/access';
import { altText, caption } from '../../lib/posts/fields';
import { captionFields, checkAltText } from '../../lib/posts/caption';
import { editPost } from '../../lib/posts/write';
import { imageCount, toPostView } from '../../lib/posts/model';
import { LIKES_EMBED, recentLikers, viewerFlags } from '../../lib/posts/present';
import { isPublicAccount } from '../../lib/tags/entries';

export const params = z.strictObject({ post_id: id() });
// Either or both: a new caption, new alt text (contract section 19).
export const body = z.strictObject({ caption: z.optional(caption()), altText: z.optional(altText()) });

// Its answer embeds likers: scrubbed of users hidden from the caller like a GET's (contract section 6).
export const handler = http({ params, body, scrubHidden: true }, async ({ params, body, caller, trace }) => {
  if (body.caption === undefined && body.altText === undefined) throw ValidationError.field('caption', 'give caption, altText or both');
  // The post as the caller may see it (404 when missing or hidden by a block), the likers and
  // the caller's flags of the answer, all at once; only the author may edit.
  const [author, post, likes, flags, fields] = await Promise.all([
    caller.user(),
    visiblePost(params.post_id, caller.userId),
    recentLikers(params.post_id, LIKES_EMBED.single),
    viewerFlags(caller.userId, [params.post_id]),
    body.caption === undefined ? undefined : captionFields(body.caption),
  ]);
  if (post.author !== caller.userId) throw new Forbidden('Only the author can edit a post.');
  checkAltText(body.altText, imageCount(post.image));
  const updated = await editPost(post, { ...body, ...fields }, trace, { params, body }, isPublicAccount(author));
  return { body: { message: 'Post updated successfully', post: toPostView(updated, likes, flags.get(post.id)!) } };
});
