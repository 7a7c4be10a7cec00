import { http } from '../../lib/http';
import { subscriptionsOf, view } from '../../lib/live/subscriptions';

export const handler = http({}, async ({ caller }) => {
  const [subs] = await Promise.all([subscriptionsOf(caller.userId), caller.user()]);
  return { body: { subscriptions: subs.reverse().map(view) } };
});
