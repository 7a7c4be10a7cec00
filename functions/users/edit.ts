import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { ValidationError } from '../../lib/errors';
import { EMBED_LIMIT, loadEdges } from '../../lib/users/repo';
import { updateProfile } from '../../lib/users/edit';
import { ownAhead } from '../../lib/graph/hidden';
import { toBaseUser } from '../../lib/users/model';
import * as f from '../../lib/users/fields';
import { id } from '../../lib/fields';
import { TABLE } from '../../lib/db/client';
import { goPublicJob } from '../../lib/graph/go-public';
import { tagRecountJob } from '../../lib/tags/recount-job';

export const editBody = z.strictObject({
  name: z.optional(f.name()),
  username: z.optional(f.username()),
  bio: z.optional(f.bio()),
  gender: z.optional(f.gender()),
  image: z.optional(f.profileImage()),
  // An uploaded media instead of image (contract section 12): the profile image becomes its 320 variant.
  imageMedia: z.optional(id().check(z.meta({ description: "the id of one of the caller's own ready media, instead of image" }))),
  // Contract section 18: going public approves every pending follow request.
  isPrivate: z.optional(z.boolean().check(z.meta({ description: 'a private account: only approved followers see its posts and lists; false approves every pending request' }))),
}).check(z.meta({ minProperties: 1, not: { required: ['image', 'imageMedia'] }, description: 'A non-empty subset of the fields; at most one of image and imageMedia.' }));

export const handler = http({ body: editBody }, async ({ body, caller, trace, params }) => {
  if (Object.keys(body).length === 0) {
    throw ValidationError.field('body', 'must name at least one of name, username, bio, gender, image, imageMedia, isPrivate');
  }
  if (body.image !== undefined && body.imageMedia !== undefined) throw ValidationError.field('imageMedia', 'give at most one of image and imageMedia');
  const { imageMedia, ...changes } = body;
  const edges = loadEdges(caller.userId, true, EMBED_LIMIT.single, ownAhead(caller));
  edges.catch(() => undefined);
  const { user, edges: seen } = await updateProfile({ userId: caller.userId, me: caller.user(), changes, imageMedia, edges, trace, payload: { params, body },
    goingPublic: () => [{ op: { Put: { TableName: TABLE, Item: goPublicJob({ userId: caller.userId, trace }, new Date().toISOString()) } } }],
    privacyChanged: () => [tagRecountJob(caller.userId, new Date().toISOString())],
  });
  return { body: { message: 'Profile updated successfully', user: toBaseUser(user, seen, true) } };
});
