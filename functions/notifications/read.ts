import { http } from '../../lib/http';
import { markAllRead } from '../../lib/notifications/store';

export const handler = http({}, async ({ caller }) => {
  await caller.user();
  await markAllRead(caller.userId);
  return { body: { unreadCount: 0 } };
});
