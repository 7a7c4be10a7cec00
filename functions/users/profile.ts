import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { identifier } from '../../lib/fields';
import { NotFound } from '../../lib/errors';
import { EMBED_LIMIT, getUser, loadEdges, resolveUserId } from '../../lib/users/repo';
import { counters, toBaseUser } from '../../lib/users/model';
import { relations } from '../../lib/graph/relations';

export const params = z.strictObject({ identifier: identifier() });

export const handler = http({ params }, async ({ params, caller }) => {
  const targetId = await resolveUserId(params.identifier);
  if (!targetId) throw new NotFound('user');
  const own = targetId === caller.userId;
  const [user, edges, rel] = await Promise.all([
    // The caller's own item is already in flight from authentication.
    own ? caller.user() : getUser(targetId),
    loadEdges(targetId, own, EMBED_LIMIT.single, own ? { blocked: caller.blockLists().then((l) => l.blocked) } : {}),
    relations(caller.userId, [targetId]),
  ]);
  const r = rel.get(targetId)!;
  // To someone they blocked, a user does not exist.
  if (!user || r.blocksCaller) throw new NotFound('user');
  return {
    body: {
      user: { ...toBaseUser(user, edges, own), isFollowing: r.isFollowing, isBlocked: r.isBlocked, ...counters(user) },
    },
  };
});
