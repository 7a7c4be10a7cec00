import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { ValidationError } from '../../lib/errors';
import { ConditionFailed } from '../../lib/db/transact';
import { editProfile } from '../../lib/users/write';
import { EMBED_LIMIT, getUser, loadEdges } from '../../lib/users/repo';
import { toBaseUser } from '../../lib/users/model';
import { Unauthorized } from '../../lib/errors';
import * as f from '../../lib/users/fields';

export const editBody = z.strictObject({
  name: z.optional(f.name()),
  username: z.optional(f.username()),
  bio: z.optional(f.bio()),
  gender: z.optional(f.gender()),
  image: z.optional(f.profileImage()),
}).check(z.meta({ minProperties: 1 }));

// Each round of concurrent edits of one profile lets at least one through, so this covers
// ten at once; the jittered pause keeps the losers from colliding again in lockstep.
const ATTEMPTS = 10;
const pause = (attempt: number) => new Promise((r) => setTimeout(r, Math.random() * 10 * attempt));

export const handler = http({ body: editBody }, async ({ body, caller, trace, params }) => {
  if (Object.keys(body).length === 0) {
    throw ValidationError.field('body', 'must name at least one of name, username, bio, gender, image');
  }
  // An edit changes no edge: the edge lists of the answer are read alongside the update.
  const edgesRead = loadEdges(caller.userId, true, EMBED_LIMIT.single);
  edgesRead.catch(() => undefined);
  let current = await caller.user();
  for (let attempt = 1; ; attempt++) {
    try {
      const [user, edges] = await Promise.all([editProfile(current, body, trace, { params, body }), edgesRead]);
      return { body: { message: 'Profile updated successfully', user: toBaseUser(user, edges, true) } };
    } catch (err) {
      // Another edit landed between our read and our write: read again and reapply.
      if (!(err instanceof ConditionFailed) || attempt >= ATTEMPTS) throw err;
      await pause(attempt);
      const fresh = await getUser(current.id);
      if (!fresh) throw new Unauthorized('The account of this token no longer exists.');
      current = fresh;
    }
  }
});
