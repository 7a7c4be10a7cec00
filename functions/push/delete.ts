import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { id } from '../../lib/fields';
import { NotFound } from '../../lib/errors';
import { unsubscribe } from '../../lib/live/subscriptions';
import { logItem } from '../../lib/audit/records';

export const params = z.strictObject({ id: id() });

export const handler = http({ params }, async ({ params, caller, trace }) => {
  await caller.user();
  // The key is in the caller's own partition: another user's subscription is simply not found.
  const log = logItem(trace, { type: 'PUSH_UNSUBSCRIBED', description: `Web Push subscription ${params.id} was removed.`, actorId: caller.userId });
  if (!(await unsubscribe(caller.userId, params.id, log))) throw new NotFound('subscription');
  return { body: { message: 'Subscription removed' } };
});
