import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { identifier } from '../../lib/fields';
import { targetOf } from '../../lib/graph/target';
import { unfollow } from '../../lib/graph/follow';

export const params = z.strictObject({ identifier: identifier() });

export const handler = http({ params }, async ({ params, caller, trace }) => {
  const [, targetId] = await Promise.all([
    caller.user(),
    targetOf(params.identifier, caller.userId),
  ]);
  const { changed, followersCount } = await unfollow(caller.userId, targetId, trace, { params });
  return {
    body: {
      message: changed ? 'User unfollowed successfully' : 'You do not follow this user',
      isFollowing: false,
      followersCount,
    },
  };
});
