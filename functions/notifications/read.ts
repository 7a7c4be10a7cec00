import { http } from '../../lib/http';
import { markAllRead } from '../../lib/notifications/store';
import { logItem } from '../../lib/audit/records';
import { diffState } from '../../lib/audit/diff';

export const handler = http({}, async ({ caller, trace }) => {
  await caller.user();
  // The record names the state item's fields the mark changed (contract section 9).
  await markAllRead(caller.userId, (before, after) => logItem(trace, {
    type: 'NOTIFICATIONS_READ',
    description: `User ${caller.userId} marked every notification read.`,
    actorId: caller.userId,
    diff: diffState(before, after),
  }));
  return { body: { unreadCount: 0 } };
});
