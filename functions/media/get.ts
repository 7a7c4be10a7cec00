import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { id } from '../../lib/fields';
import { NotFound } from '../../lib/errors';
import { getMedia, toMedia } from '../../lib/media/model';

export const params = z.strictObject({ media_id: id() });

// A media object embeds no other user: the block lists need not be read.
export const handler = http({ params, scrubHidden: false }, async ({ params, caller }) => {
  const [, media] = await Promise.all([caller.user(), getMedia(params.media_id)]);
  // Someone else's media do not exist for the caller.
  if (!media || media.owner !== caller.userId) throw new NotFound('media');
  return { body: { media: toMedia(media) } };
});
