import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { identifier } from '../../lib/fields';
import { targetOf } from '../../lib/graph/target';
import { removeFollower } from '../../lib/graph/follow';

export const params = z.strictObject({ identifier: identifier() });

// The named user stops following the caller (contract section 18); nobody is told.
export const handler = http({ params }, async ({ params, caller, trace }) => {
  const [me, followerId] = await Promise.all([caller.user(), targetOf(params.identifier, caller.userId)]);
  const at = (me as { followersCountAt?: number }).followersCountAt;
  const { changed, followersCount } = await removeFollower(
    { id: me.id, followersCount: Number(me.followersCount ?? 0), ...(at === undefined ? {} : { followersCountAt: Number(at) }) },
    followerId, trace, { params },
  );
  return { body: { message: changed ? 'Follower removed' : 'This user does not follow you', followersCount } };
});
