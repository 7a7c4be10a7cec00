import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { identifier } from '../../lib/fields';
import { targetOf } from '../../lib/graph/target';
import { approveRequest } from '../../lib/graph/requests';

export const params = z.strictObject({ identifier: identifier() });

export const handler = http({ params }, async ({ params, caller, trace }) => {
  const [me, requesterId] = await Promise.all([caller.user(), targetOf(params.identifier, caller.userId)]);
  const at = (me as { followersCountAt?: number }).followersCountAt;
  const followersCount = await approveRequest(
    { id: me.id, followersCount: Number(me.followersCount ?? 0), ...(at === undefined ? {} : { followersCountAt: Number(at) }) },
    requesterId, trace, { params },
  );
  return { body: { message: 'Follow request approved', followersCount } };
});
