import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { identifier } from '../../lib/fields';
import { countedTarget } from '../../lib/graph/target';
import { unfollow } from '../../lib/graph/follow';
import { cancelRequest } from '../../lib/graph/requests';

export const params = z.strictObject({ identifier: identifier() });

export const handler = http({ params }, async ({ params, caller, trace }) => {
  // The target's followersCount is read here (with the caller, when named by id) and is the
  // condition of the write's counter: the answer's count needs no read after the write.
  const [me, target] = await Promise.all([
    caller.user(),
    countedTarget(params.identifier, caller.userId),
  ]);
  // An unfollow of an account the caller asked to follow cancels the request (contract section 18).
  if (target.id !== caller.userId && Number(me.requestsOut ?? 0) > 0 && await cancelRequest(caller.userId, target.id, trace, { params })) {
    return { body: { message: 'Follow request cancelled', isFollowing: false, requested: false, followersCount: target.followersCount } };
  }
  const { changed, followersCount } = await unfollow(caller.userId, target, trace, { params });
  return {
    body: {
      message: changed ? 'User unfollowed successfully' : 'You do not follow this user',
      isFollowing: false,
      requested: false,
      followersCount,
    },
  };
});
