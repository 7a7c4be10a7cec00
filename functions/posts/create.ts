import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { idempotencyItem, idempotent } from '../../lib/http/idempotency';
import { ValidationError } from '../../lib/errors';
import { id } from '../../lib/fields';
import { buildPost, createPost, feedMode } from '../../lib/posts/write';
import { config } from '../../lib/config';
import { toPost } from '../../lib/posts/model';
import { altText, caption, imagePublicId, MAX_IMAGES, postImage } from '../../lib/posts/fields';
import { captionFields, checkAltText } from '../../lib/posts/caption';
import { isPublicAccount } from '../../lib/tags/entries';
import { markObjectsUsed, takeMedia, usableMedia } from '../../lib/media/use';

export const createBody = z.strictObject({
  image: z.optional(postImage()),
  // Uploaded media instead of image URLs (contract section 12).
  media: z.optional(z.array(id()).check(
    z.minLength(1), z.maxLength(MAX_IMAGES),
    z.refine((ids) => new Set(ids).size === ids.length, 'must not name a media twice'),
    z.meta({ description: `1-${MAX_IMAGES} ids of the caller's own ready media, instead of image; the post's image and image_public_id are made from them` }),
  )),
  caption: z._default(caption(), ''),
  image_public_id: z._default(imagePublicId(), ''),
  altText: z.optional(altText()),
});
// Exactly one of image and media, image_public_id only with image: the handler's rules below,
// stated for clients and validators in the OpenAPI document (lib/openapi/document.ts
// BODY_RULES), not here, where every byte is in this function's bundle.

export const handler = http({ body: createBody, idempotent }, async (req) => {
  const { body, caller, trace, params } = req;
  if ((body.image === undefined) === (body.media === undefined)) {
    throw ValidationError.field(body.image === undefined ? 'image' : 'media', 'give exactly one of image and media');
  }
  if (body.media && body.image_public_id !== '') {
    throw ValidationError.field('image_public_id', 'is made from media; give it only with image');
  }
  const imageCount = body.media?.length ?? (JSON.parse(body.image!) as string[]).length;
  checkAltText(body.altText, imageCount);
  const alt = body.altText ?? Array.from({ length: imageCount }, () => '');
  const [author, media, fields] = await Promise.all([
    caller.user(), body.media ? usableMedia(caller.userId, body.media, 'media') : undefined, captionFields(body.caption),
  ]);
  const base = media
    ? { image: JSON.stringify(media.map((m) => m.url)), image_public_id: JSON.stringify(media.map((m) => m.id)), caption: body.caption, media: media.map((m) => m.id) }
    : { image: body.image!, image_public_id: body.image_public_id, caption: body.caption };
  const input = { ...base, ...fields, altText: alt };
  const mode = feedMode(author, config.fanoutMaxFollowers);
  const post = buildPost(caller.userId, input, mode !== 'pull');
  const reply = { status: 201, body: { message: 'Post created successfully', post: toPost(post, []) } };
  if (media) await markObjectsUsed(media);
  await createPost(post, trace, { params, body }, [
    ...(media ? takeMedia(media, `post#${post.id}`, 'media') : []),
    ...idempotencyItem(req, reply),
  ], mode === 'convert', !isPublicAccount(author));
  return reply;
});
