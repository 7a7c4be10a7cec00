import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { identifier } from '../../lib/fields';
import { NotFound } from '../../lib/errors';
import { EMBED_LIMIT, loadEdges, resolveUserId } from '../../lib/users/repo';
import { counters, toBaseUser } from '../../lib/users/model';
import { NO_RELATION } from '../../lib/graph/relations';
import { userAndRelation } from '../../lib/graph/lookup';
import { ownAhead } from '../../lib/graph/hidden';

export const params = z.strictObject({ identifier: identifier() });

export const handler = http({ params }, async ({ params, caller }) => {
  const targetId = await resolveUserId(params.identifier);
  if (!targetId) throw new NotFound('user');
  const own = targetId === caller.userId;
  const [{ user, relation: r, requested, muted }, edges] = await Promise.all([
    // The caller's own item is already in flight from authentication; someone else's comes
    // with the caller's relation to them (its request and mute keys too) in one BatchGet.
    own ? caller.user().then((u) => ({ user: u, relation: NO_RELATION, requested: false, muted: false })) : userAndRelation(caller.userId, targetId, true),
    loadEdges(targetId, own, EMBED_LIMIT.single, own ? ownAhead(caller) : {}),
  ]);
  // To someone they blocked, a user does not exist.
  if (!user || r.blocksCaller) throw new NotFound('user');
  // A private account shows a non-follower its base fields and counts, nothing of its lists (contract section 18).
  const locked = !own && user.isPrivate === true && !r.isFollowing;
  return {
    body: {
      user: {
        ...toBaseUser(user, locked ? { followers: [], following: [] } : edges, own),
        isFollowing: r.isFollowing, requested: !!requested, isMuted: !!muted, isBlocked: r.isBlocked, ...counters(user),
      },
    },
  };
});
