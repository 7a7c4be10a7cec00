import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { idempotencyItem, idempotent } from '../../lib/http/idempotency';
import { buildUpload, createUpload } from '../../lib/media/uploads';
import { MAX_UPLOAD_BYTES, MEDIA_TYPES } from '../../lib/media/model';

export const uploadBody = z.strictObject({
  contentType: z.enum(MEDIA_TYPES),
  size: z.int().check(z.minimum(1), z.maximum(MAX_UPLOAD_BYTES)),
});

export const handler = http({ body: uploadBody, idempotent }, async (req) => {
  const { body, caller, trace, params } = req;
  await caller.user();
  const { item, upload } = await buildUpload(caller.userId, body.contentType, body.size, trace);
  const reply = { status: 201, body: { upload } };
  await createUpload(item, trace, { params, body }, idempotencyItem(req, reply));
  return reply;
});
