import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { intParam, listCursor } from '../../lib/fields';
import { readNotifications } from '../../lib/notifications/read';
import { presentIds } from '../../lib/graph/present';

export const query = z.strictObject({
  limit: intParam(1, 50, 20),
  cursor: z.optional(listCursor()),
});

export const handler = http({ query }, async ({ query, caller }) => {
  const page = await readNotifications(caller, query.limit, query.cursor);
  const [{ users }, unread] = await Promise.all([presentIds(page.items.map((n) => n.actorId), caller.userId), page.unread]);
  // An actor whose account is gone is left out with its notifications (they are being removed).
  const notifications = page.items.filter((n) => users.has(n.actorId)).map((n) => ({
    _id: n.id, type: n.kind, actor: users.get(n.actorId), post: n.postId, comment: n.commentId, createdAt: n.createdAt, read: unread.isRead(n),
  }));
  return { body: { notifications, unreadCount: unread.count, pagination: { hasMore: page.hasMore, nextCursor: page.nextCursor } } };
});
