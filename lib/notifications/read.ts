// A page of the caller's notifications, newest first (GSI1 NOTIFS#<caller>), and the unread
// count. Notifications from users on either side of a block with the caller are left out at
// once (the stream removes them soon after); so that unreadCount is exactly what the list
// would show, the unread ones of those users are counted (GSI2, one keys-only Query per hidden
// user, only when there are any, beside the stored count's read) and taken off the stored count.
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

/**
 * The sort keys of the notifications one (hidden) actor gave the recipient (GSI2, keys only).
 * Read beside the notification state rather than after it, so the watermark is applied here
 * (`countUnread`), not in the key condition: the page takes 2 round trips, not 3. A blocked
 * user's or a gone account's notifications are being removed by the stream, so this is
 * usually an empty Query (0.5 RCU), as the watermarked COUNT was.
 */
async function keysFrom(recipientId: string, actorId: string): Promise<string[]> {
  const sortKeys: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db.send(new QueryCommand({
      TableName: TABLE,
      IndexName: INDEX.GSI2,
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.notificationsFrom(recipientId, actorId) },
      ProjectionExpression: 'GSI2SK',
      ExclusiveStartKey: start,
    }));
    for (const item of res.Items ?? []) sortKeys.push(item.GSI2SK as string);
    start = res.LastEvaluatedKey;
  } while (start);
  return sortKeys;
}

/** How many of an actor's notifications (GSI2 sort keys "<createdAt>#<id>") are after the read watermark. */
export function countUnread(sortKeys: string[], readUpTo: string | undefined): number {
  // After the watermark's millisecond: "<readUpTo>#~" sorts after every "<readUpTo>#<id>" (ASCII keys).
  return readUpTo === undefined ? sortKeys.length : sortKeys.filter((sk) => sk > `${readUpTo}#~`).length;
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
    counted ??= Promise.all([notificationState(caller.userId), Promise.all([...blocked].map((h) => keysFrom(caller.userId, h)))])
      .then(([state, hiddenKeys]) => [state, hiddenKeys.map((sks) => countUnread(sks, state.readUpTo))]);
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
