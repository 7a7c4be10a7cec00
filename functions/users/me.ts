import { http } from '../../lib/http';
import { EMBED_LIMIT, loadEdges } from '../../lib/users/repo';
import { ownAhead } from '../../lib/graph/hidden';
import { toBaseUser } from '../../lib/users/model';

export const handler = http({}, async ({ caller }) => {
  const [user, edges] = await Promise.all([caller.user(), loadEdges(caller.userId, true, EMBED_LIMIT.single, ownAhead(caller))]);
  return { body: { user: toBaseUser(user, edges, true) } };
});
