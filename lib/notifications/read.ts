// A page of the caller's notifications, newest first (GSI1 NOTIFS#<caller>), and the unread
// count. Notifications from users on either side of a block with the caller are left out at
// once (the stream removes them soon after), and so are a suspended account's (they stay
// while it is suspended); so that unreadCount is exactly what the list would show, the unread
// ones of those hidden users are counted and taken off the stored count:
// - up to PER_ACTOR_MAX hidden users: one keys-only GSI2 Query each, beside the stored count's
//   read (2 round trips in all);
// - more (every suspended account of the stage is hidden from everyone, so this grows with
//   the stage, not with the caller): from the page's own reads when they reached back past
//   the read watermark (no request at all); or else, after the count's read, whichever costs
//   less: one Query of the caller's unread notifications (GSI1 after the watermark, actor ids
//   only; about 0.05 RCU per unread one) or the Query per hidden user (0.5 RCU each).
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import * as keys from '../keys';
import { INDEX } from '../keys';
import { decodeCursor, encodeCursor } from '../graph/cursor';
import { notificationState, type NotificationItem, type NotificationState } from './store';

/** Reads of the index per page at most when hidden users' notifications thin it. */
const MAX_READS = 4;
/** Up to this many hidden users, their unread notifications are counted one GSI2 Query each (0.5 RCU each, usually empty). */
export const PER_ACTOR_MAX = 10;
/**
 * Unread notifications read per hidden user's Query they replace: a notification item is
 * about 400 bytes, so 10 of them cost what one hidden user's (empty) Query costs, 0.5 RCU.
 */
export const UNREAD_PER_ACTOR = 10;

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

/** The sort key every unread notification's sorts after: the watermark's millisecond ("<readUpTo>#~" sorts after every "<readUpTo>#<id>", ASCII keys). */
const unreadAfter = (readUpTo: string | undefined) => (readUpTo === undefined ? undefined : `${readUpTo}#~`);

/** The sort keys of each actor's notifications to the recipient (keysFrom, all at once). */
const keysFromEach = (recipientId: string, actorIds: Set<string>) => Promise.all([...actorIds].map((a) => keysFrom(recipientId, a)));

/** How many of the notifications with these sort keys ("<createdAt>#<id>", GSI1 and GSI2 alike) are after the read watermark. */
export function countUnread(sortKeys: string[], readUpTo: string | undefined): number {
  const bound = unreadAfter(readUpTo);
  return bound === undefined ? sortKeys.length : sortKeys.filter((sk) => sk > bound).length;
}

/** One notification the page's reads saw: its GSI1 sort key and its actor. */
interface Seen { sk: string; actorId: string }

/**
 * How many of the notifications the reads saw are unread and from a hidden user, when the
 * reads saw every unread one: they began at the newest (no cursor) and reached the end of the
 * index or a notification at or before the watermark (the index is in sort-key order).
 * Undefined when they did not.
 */
export function hiddenUnreadSeen(seen: Seen[], hidden: Set<string>, readUpTo: string | undefined, fromNewest: boolean, reachedEnd: boolean): number | undefined {
  const bound = unreadAfter(readUpTo);
  const last = seen[seen.length - 1]?.sk;
  const all = fromNewest && (reachedEnd || (bound !== undefined && last !== undefined && last <= bound));
  return all ? countUnread(seen.filter((s) => hidden.has(s.actorId)).map((s) => s.sk), readUpTo) : undefined;
}

/** The caller's unread notifications from hidden users, by one Query of its unread ones (GSI1 after the watermark, actor ids only). */
async function hiddenUnreadQueried(pk: string, readUpTo: string | undefined, hidden: Set<string>): Promise<number> {
  const bound = unreadAfter(readUpTo);
  let n = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db.send(new QueryCommand({
      TableName: TABLE,
      IndexName: INDEX.GSI1,
      KeyConditionExpression: bound === undefined ? 'GSI1PK = :pk' : 'GSI1PK = :pk AND GSI1SK > :after',
      ExpressionAttributeValues: { ':pk': pk, ...(bound === undefined ? {} : { ':after': bound }) },
      ProjectionExpression: 'actorId',
      ExclusiveStartKey: start,
    }));
    for (const item of res.Items ?? []) if (hidden.has(String(item.actorId))) n++;
    start = res.LastEvaluatedKey;
  } while (start);
  return n;
}

export async function readNotifications(caller: { userId: string; hidden(): Promise<Set<string>> }, limit: number, cursor?: string): Promise<NotificationPage> {
  const after = cursor === undefined ? undefined : decodeCursor(cursor);
  // The count is read beside the first page read, never before it: a notification that lands
  // between the two reads is counted and not yet listed (the next read lists it), never the reverse.
  // (With more than PER_ACTOR_MAX hidden users counted from the reads, a hidden user's
  // notification landing in between is counted and never listed, until the next page: it
  // takes a block or a suspension at that very moment.)
  // The hidden ids are read beside the first page (no round trip of their own) and applied to it after.
  const hiddenRead = caller.hidden();
  hiddenRead.catch(() => undefined); // awaited below; never an unhandled rejection meanwhile
  let hidden: Set<string> | undefined;
  const pk = keys.notificationsOf(caller.userId);
  const shown: NotificationItem[] = [];
  let start: Record<string, unknown> | undefined;
  let lastRead: string | undefined;
  let more = true;
  const seen: Seen[] = [];
  let stateRead: Promise<NotificationState> | undefined;
  let perActor: Promise<string[][]> | undefined;
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
    for (const item of (res.Items ?? []) as NotificationItem[]) seen.push({ sk: item.GSI1SK, actorId: item.actorId });
    for (const item of (res.Items ?? []) as NotificationItem[]) {
      lastRead = item.GSI1SK;
      if (!hidden.has(item.actorId)) shown.push(item);
      if (shown.length > limit) break;
    }
    start = res.LastEvaluatedKey;
    more = start !== undefined;
    // The stored count, after the first read; the few hidden users' unread ones beside it.
    if (!stateRead) {
      stateRead = notificationState(caller.userId);
      if (hidden.size <= PER_ACTOR_MAX) perActor = keysFromEach(caller.userId, hidden);
      // Awaited after the page's reads; never an unhandled rejection while later reads are in flight.
      for (const p of [stateRead, perActor]) p?.catch(() => undefined);
    }
  }
  const hiddenNow = hidden ?? new Set<string>();
  const reachedEnd = !more;
  const counted: Promise<[NotificationState, number]> = stateRead!.then(async (state) => {
    // Nothing unread (or nothing hidden): nothing to take off, no request.
    if (hiddenNow.size === 0 || state.unread === 0) return [state, 0];
    if (!perActor) {
      const fromReads = hiddenUnreadSeen(seen, hiddenNow, state.readUpTo, after === undefined, reachedEnd);
      if (fromReads !== undefined) return [state, fromReads];
      // A third round trip: the cheaper of the caller's unread ones and a Query per hidden user.
      if (state.unread <= UNREAD_PER_ACTOR * hiddenNow.size) return [state, await hiddenUnreadQueried(pk, state.readUpTo, hiddenNow)];
    }
    const each = await (perActor ?? keysFromEach(caller.userId, hiddenNow));
    return [state, each.reduce((sum, sks) => sum + countUnread(sks, state.readUpTo), 0)];
  });
  counted.catch(() => undefined); // awaited by the caller beside the presentation; never an unhandled rejection meanwhile
  const page = shown.slice(0, limit);
  const hasMore = shown.length > limit || more;
  // The cursor is the last item shown, or (hidden items filled the reads) the last one read.
  const last = shown.length > limit ? page[page.length - 1]!.GSI1SK : lastRead;
  return {
    items: page,
    // Awaited by the caller beside the page's presentation: no round trip of its own (but the
    // third above, with more than PER_ACTOR_MAX hidden users and reads short of the watermark).
    unread: counted.then(([state, hiddenUnread]) => ({
      count: Math.max(0, state.unread - hiddenUnread),
      isRead: (n: NotificationItem) => state.readUpTo !== undefined && n.createdAt <= state.readUpTo,
    })),
    hasMore,
    nextCursor: hasMore && last ? encodeCursor(last) : null,
  };
}
