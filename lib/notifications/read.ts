// A page of the caller's notifications, newest first (GSI1 NOTIFS#<caller>), and the unread
// count. Notifications from users on either side of a block with the caller are left out at
// once (the stream removes them soon after); so that unreadCount is exactly what the list
// would show, the unread ones of those users are counted (GSI2, one COUNT Query per hidden
// user, only when there are any) and taken off the stored count.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import * as keys from '../keys';
import { INDEX } from '../keys';
import { decodeCursor, encodeCursor } from '../graph/cursor';
import { notificationState, type NotificationItem, type NotificationState } from './store';

/** Reads of the index per page at most when hidden users' notifications thin it. */
const MAX_READS = 4;

export interface NotificationPage {
  items: NotificationItem[];
  /** Whether a notification of the page is read (by the watermark read with the count). */
  unread: Promise<{ count: number; isRead(n: NotificationItem): boolean }>;
  hasMore: boolean;
  nextCursor: string | null;
}

async function unreadFrom(recipientId: string, actorId: string, readUpTo: string | undefined): Promise<number> {
  let n = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db.send(new QueryCommand({
      TableName: TABLE,
      IndexName: INDEX.GSI2,
      KeyConditionExpression: readUpTo ? 'GSI2PK = :pk AND GSI2SK > :after' : 'GSI2PK = :pk',
      // After the watermark's millisecond: "<readUpTo>#~" sorts after every "<readUpTo>#<id>".
      ExpressionAttributeValues: { ':pk': keys.notificationsFrom(recipientId, actorId), ...(readUpTo ? { ':after': `${readUpTo}#~` } : {}) },
      Select: 'COUNT',
      ExclusiveStartKey: start,
    }));
    n += res.Count ?? 0;
    start = res.LastEvaluatedKey;
  } while (start);
  return n;
}

export async function readNotifications(caller: { userId: string; hidden(): Promise<Set<string>> }, limit: number, cursor?: string): Promise<NotificationPage> {
  const after = cursor === undefined ? undefined : decodeCursor(cursor);
  // The count is read beside the first page read, never before it: a notification that lands
  // between the two reads is counted and not yet listed (the next read lists it), never the reverse.
  // The hidden ids are read beside the first page (no round trip of their own) and applied to it after.
  const hiddenRead = caller.hidden();
  hiddenRead.catch(() => undefined); // awaited below; never an unhandled rejection meanwhile
  let hidden: Set<string> | undefined;
  const pk = keys.notificationsOf(caller.userId);
  const shown: NotificationItem[] = [];
  let start: Record<string, unknown> | undefined;
  let lastRead: string | undefined;
  let more = true;
  let counted: Promise<[NotificationState, number[]]> | undefined;
  for (let reads = 0; reads < MAX_READS && more && shown.length <= limit; reads++) {
    const res = await db.send(new QueryCommand({
      TableName: TABLE,
      IndexName: INDEX.GSI1,
      // Sort keys are unique per recipient (they end in the notification's id): "< cursor" is exactly "after it".
      KeyConditionExpression: after ? 'GSI1PK = :pk AND GSI1SK < :after' : 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': pk, ...(after ? { ':after': after } : {}) },
      ScanIndexForward: false,
      Limit: Math.max(limit + 1 - shown.length, reads ? 25 : 0),
      ExclusiveStartKey: start,
    }));
    hidden ??= await hiddenRead;
    for (const item of (res.Items ?? []) as NotificationItem[]) {
      lastRead = item.GSI1SK;
      if (!hidden.has(item.actorId)) shown.push(item);
      if (shown.length > limit) break;
    }
    start = res.LastEvaluatedKey;
    more = start !== undefined;
    // The unread ones of hidden users are counted with the stored count (nothing to count without blocks).
    const blocked = hidden;
    counted ??= notificationState(caller.userId).then(async (state) => [state, await Promise.all([...blocked].map((h) => unreadFrom(caller.userId, h, state.readUpTo)))]);
  }
  const page = shown.slice(0, limit);
  const hasMore = shown.length > limit || more;
  // The cursor is the last item shown, or (hidden items filled the reads) the last one read.
  const last = shown.length > limit ? page[page.length - 1]!.GSI1SK : lastRead;
  return {
    items: page,
    // Awaited by the caller beside the page's presentation: no round trip of its own.
    unread: counted!.then(([state, hiddenUnread]) => ({
      count: Math.max(0, state.unread - hiddenUnread.reduce((a, b) => a + b, 0)),
      isRead: (n: NotificationItem) => state.readUpTo !== undefined && n.createdAt <= state.readUpTo,
    })),
    hasMore,
    nextCursor: hasMore && last ? encodeCursor(last) : null,
  };
}
