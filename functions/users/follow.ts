import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { identifier } from '../../lib/fields';
import { targetOf } from '../../lib/graph/target';
import { follow } from '../../lib/graph/follow';

export const params = z.strictObject({ identifier: identifier() });

export const handler = http({ params }, async ({ params, caller, trace }) => {
  const [, targetId] = await Promise.all([
    caller.user(),
    targetOf(params.identifier, caller.userId, 'You cannot follow yourself.'),
  ]);
  const { changed, followersCount } = await follow(caller.userId, targetId, trace, { params });
  return {
    body: {
      message: changed ? 'User followed successfully' : 'You already follow this user',
      isFollowing: true,
      followersCount,
    },
  };
});
