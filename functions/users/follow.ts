import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { identifier } from '../../lib/fields';
import { countedTarget } from '../../lib/graph/target';
import { follow } from '../../lib/graph/follow';

export const params = z.strictObject({ identifier: identifier() });

export const handler = http({ params }, async ({ params, caller, trace }) => {
  // The target's followersCount is read here (with the caller, when named by id) and is the
  // condition of the write's counter: the answer's count needs no read after the write.
  const [, target] = await Promise.all([
    caller.user(),
    countedTarget(params.identifier, caller.userId, 'You cannot follow yourself.'),
  ]);
  const { changed, followersCount } = await follow(caller.userId, target, trace, { params });
  return {
    body: {
      message: changed ? 'User followed successfully' : 'You already follow this user',
      isFollowing: true,
      followersCount,
    },
  };
});
