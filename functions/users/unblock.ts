import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { identifier } from '../../lib/fields';
import { targetOf } from '../../lib/graph/target';
import { unblock } from '../../lib/graph/block';

export const params = z.strictObject({ identifier: identifier() });

export const handler = http({ params }, async ({ params, caller, trace }) => {
  const [, targetId] = await Promise.all([
    caller.user(),
    targetOf(params.identifier, caller.userId),
  ]);
  const { changed } = await unblock(caller.userId, targetId, trace, { params });
  return { body: { message: changed ? 'User unblocked successfully' : 'You do not block this user', isBlocked: false } };
});
