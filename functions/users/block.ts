import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { identifier } from '../../lib/fields';
import { targetOf } from '../../lib/graph/target';
import { block } from '../../lib/graph/block';

export const params = z.strictObject({ identifier: identifier() });

export const handler = http({ params }, async ({ params, caller, trace }) => {
  const [, targetId] = await Promise.all([
    caller.user(),
    targetOf(params.identifier, caller.userId, 'You cannot block yourself.'),
  ]);
  const { changed } = await block(caller.userId, targetId, trace, { params });
  return { body: { message: changed ? 'User blocked successfully' : 'You already block this user', isBlocked: true } };
});
