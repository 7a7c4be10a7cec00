import { http } from '../../lib/http';
import { EMBED_LIMIT, loadEdges } from '../../lib/users/repo';
import { toBaseUser } from '../../lib/users/model';

export const handler = http({}, async ({ caller }) => {
  const [user, edges] = await Promise.all([caller.user(), loadEdges(caller.userId, true, EMBED_LIMIT.single, { blocked: caller.blockLists().then((l) => l.blocked) })]);
  return { body: { user: toBaseUser(user, edges, true) } };
});
