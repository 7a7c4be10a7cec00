import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { identifier } from '../../lib/fields';
import { countedTarget } from '../../lib/graph/target';
import { follow } from '../../lib/graph/follow';
import { requestFollow } from '../../lib/graph/requests';

export const params = z.strictObject({ identifier: identifier() });

export const handler = http({ params }, async ({ params, caller, trace }) => {
  // The target's followersCount is read here (with the caller, when named by id) and is the
  // condition of the write's counter: the answer's count needs no read after the write.
  const [me, target] = await Promise.all([
    caller.user(),
    countedTarget(params.identifier, caller.userId, 'You cannot follow yourself.'),
  ]);
  // A private account (contract section 18): a pending request, counts unchanged.
  if (target.isPrivate) {
    const outcome = await requestFollow(me, target, trace, { params });
    if (outcome === 'requested' || outcome === 'already-requested') {
      return {
        body: {
          message: outcome === 'requested' ? 'Follow request sent' : 'Your follow request is pending',
          isFollowing: false,
          requested: true,
          followersCount: target.followersCount,
        },
      };
    }
    if (outcome === 'following') return { body: { message: 'You already follow this user', isFollowing: true, requested: false, followersCount: target.followersCount } };
    // 'public': it went public in between; a follow as usual.
  }
  const { changed, followersCount } = await follow(caller.userId, target, trace, { params }, me);
  return {
    body: {
      message: changed ? 'User followed successfully' : 'You already follow this user',
      isFollowing: true,
      requested: false,
      followersCount,
    },
  };
});
