import { http } from '../../lib/http';
import { markAllRead } from '../../lib/notifications/store';
import { logItem } from '../../lib/audit/records';
import { diffState } from '../../lib/audit/diff';

export const handler = http({}, async ({ caller, trace }) => {
  // The record names the state item's fields the mark changed (contract section 9). Nothing is
  // written before the caller's own read has answered.
  await markAllRead(caller.userId, (before, after) => logItem(trace, {
    type: 'NOTIFICATIONS_READ',
    description: `User ${caller.userId} marked every notification read.`,
    actorId: caller.userId,
    diff: diffState(before, after),
  }), { gate: caller.user() });
  return { body: { unreadCount: 0 } };
});
