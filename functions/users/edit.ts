import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { ValidationError } from '../../lib/errors';
import { ConditionFailed } from '../../lib/db/transact';
import { editProfile } from '../../lib/users/write';
import { EMBED_LIMIT, getUser, loadEdges } from '../../lib/users/repo';
import { ownAhead } from '../../lib/graph/hidden';
import { toBaseUser } from '../../lib/users/model';
import { Unauthorized } from '../../lib/errors';
import * as f from '../../lib/users/fields';
import { id } from '../../lib/fields';
import { markObjectsUsed, profileMediaOf, releaseProfileMedia, removeReplacedMedia, takeMedia, usableMedia } from '../../lib/media/use';
import type { TxItem } from '../../lib/db/transact';

export const editBody = z.strictObject({
  name: z.optional(f.name()),
  username: z.optional(f.username()),
  bio: z.optional(f.bio()),
  gender: z.optional(f.gender()),
  image: z.optional(f.profileImage()),
  // An uploaded media instead of image (contract section 12): the profile image becomes its 320 variant.
  imageMedia: z.optional(id().check(z.meta({ description: "the id of one of the caller's own ready media, instead of image" }))),
}).check(z.meta({ minProperties: 1, not: { required: ['image', 'imageMedia'] }, description: 'A non-empty subset of the fields; at most one of image and imageMedia.' }));

// Each round of concurrent edits of one profile lets at least one through, so this covers
// ten at once; the jittered pause keeps the losers from colliding again in lockstep.
const ATTEMPTS = 10;
const pause = (attempt: number) => new Promise((r) => setTimeout(r, Math.random() * 10 * attempt));

export const handler = http({ body: editBody }, async ({ body, caller, trace, params }) => {
  if (Object.keys(body).length === 0) {
    throw ValidationError.field('body', 'must name at least one of name, username, bio, gender, image, imageMedia');
  }
  if (body.image !== undefined && body.imageMedia !== undefined) throw ValidationError.field('imageMedia', 'give at most one of image and imageMedia');
  const { imageMedia, ...fields } = body;
  // An edit changes no edge: the edge lists of the answer are read alongside the update.
  const edgesRead = loadEdges(caller.userId, true, EMBED_LIMIT.single, ownAhead(caller));
  edgesRead.catch(() => undefined);
  // The caller's item first (a token of an ended session gets its 401 before any image is touched).
  const [found, me] = await Promise.all([imageMedia ? usableMedia(caller.userId, [imageMedia], 'imageMedia') : undefined, caller.user()]);
  let current = me;
  const media = found?.[0];
  const changes = media ? { ...fields, image: media.variants!['320'] } : fields;
  if (media) await markObjectsUsed([media]);
  for (let attempt = 1; ; attempt++) {
    try {
      // A profile image from an upload is taken in the edit's transaction; the one it replaces, if it was the profile's upload, is given back.
      const replaced = changes.image !== undefined && changes.image !== current.image ? await profileMediaOf(current.image, caller.userId) : undefined;
      const extra: TxItem[] = [...(media ? takeMedia([media], 'profile', 'imageMedia') : []), ...(replaced ? releaseProfileMedia(replaced.id, caller.userId) : [])];
      const [user, edges] = await Promise.all([editProfile(current, changes, trace, { params, body }, extra), edgesRead]);
      if (replaced) await removeReplacedMedia(replaced);
      return { body: { message: 'Profile updated successfully', user: toBaseUser(user, edges, true) } };
    } catch (err) {
      // Another edit landed between our read and our write: read again and reapply.
      if (!(err instanceof ConditionFailed) || attempt >= ATTEMPTS) throw err;
      await pause(attempt);
      const fresh = await getUser(current.id);
      if (!fresh || fresh.deletedAt || fresh.suspendedAt) throw new Unauthorized('This account no longer exists or is suspended.');
      current = fresh;
    }
  }
});
