import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { idempotencyItem } from '../../lib/http/idempotency';
import { buildPost, createPost, feedMode } from '../../lib/posts/write';
import { config } from '../../lib/config';
import { toPost } from '../../lib/posts/model';
import { caption, imagePublicId, postImage } from '../../lib/posts/fields';

export const createBody = z.strictObject({
  image: postImage(),
  caption: z._default(caption(), ''),
  image_public_id: z._default(imagePublicId(), ''),
});

export const handler = http({ body: createBody, idempotent: true }, async (req) => {
  const { body, caller, trace, params } = req;
  const author = await caller.user();
  const mode = feedMode(author, config.fanoutMaxFollowers);
  const post = buildPost(caller.userId, body, mode !== 'pull');
  const reply = { status: 201, body: { message: 'Post created successfully', post: toPost(post, []) } };
  await createPost(post, trace, { params, body }, idempotencyItem(req, reply), mode === 'convert');
  return reply;
});
