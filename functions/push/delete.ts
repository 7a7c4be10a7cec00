import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { id } from '../../lib/fields';
import { NotFound } from '../../lib/errors';
import { unsubscribe } from '../../lib/live/subscriptions';

export const params = z.strictObject({ id: id() });

export const handler = http({ params }, async ({ params, caller }) => {
  await caller.user();
  // The key is in the caller's own partition: another user's subscription is simply not found.
  if (!(await unsubscribe(caller.userId, params.id))) throw new NotFound('subscription');
  return { body: { message: 'Subscription removed' } };
});
