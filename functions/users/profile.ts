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
  const [{ user, relation: r }, edges] = await Promise.all([
    // The caller's own item is already in flight from authentication; someone else's comes
    // with the caller's relation to them in one BatchGet.
    own ? caller.user().then((u) => ({ user: u, relation: NO_RELATION })) : userAndRelation(caller.userId, targetId),
    loadEdges(targetId, own, EMBED_LIMIT.single, own ? ownAhead(caller) : {}),
  ]);
  // To someone they blocked, a user does not exist.
  if (!user || r.blocksCaller) throw new NotFound('user');
  return {
    body: {
      user: { ...toBaseUser(user, edges, own), isFollowing: r.isFollowing, isBlocked: r.isBlocked, ...counters(user) },
    },
  };
});
