import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { identifier } from '../../lib/fields';
import { targetOf } from '../../lib/graph/target';
import { rejectRequest } from '../../lib/graph/requests';

export const params = z.strictObject({ identifier: identifier() });

export const handler = http({ params }, async ({ params, caller, trace }) => {
  const [, requesterId] = await Promise.all([caller.user(), targetOf(params.identifier, caller.userId)]);
  await rejectRequest(caller.userId, requesterId, trace, { params });
  return { body: { message: 'Follow request rejected' } };
});
