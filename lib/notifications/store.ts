// Notification items and the recipient's unread count (contract section 14). The count is
// exact under any concurrency: every notification that is added or removed moves the count
// in the same transaction, and only when it is unread. "Read" is a watermark: POST
// /notifications/read stores the time up to which everything is read (`readUpTo`), so
// marking 100,000 notifications read is one write. A notification is unread when it was
// created after the watermark; an add or a remove checks that against the stored watermark
// inside its transaction, so a mark racing an add can never leave the count off by one.
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { db, TABLE } from '../db/client';
import { ConditionFailed, transact, type TxItem } from '../db/transact';
import * as keys from '../keys';
import { newId } from '../ids';

/** Notifications expire after this many days (DynamoDB TTL). */
export const RETENTION_DAYS = 90;

export type NotificationType = 'FOLLOW' | 'POST_LIKE' | 'COMMENT' | 'REPLY' | 'COMMENT_LIKE' | 'FOLLOW_REQUEST' | 'FOLLOW_REQUEST_APPROVED' | 'MENTION';

export interface NotificationItem {
  PK: string;
  SK: string;
  type: 'NOTIFICATION';
  kind: NotificationType;
  id: string;
  recipientId: string;
  actorId: string;
  postId: string | null;
  commentId: string | null;
  causeAt?: string;
  createdAt: string;
  expiresAt: number;
  GSI1PK: string;
  GSI1SK: string;
  GSI2PK: string;
  GSI2SK: string;
}

export interface NewNotification {
  kind: NotificationType;
  recipientId: string;
  actorId: string;
  /** What caused it, unique per recipient: its undo names the same cause. */
  cause: string;
  /** The causing item's createdAt: an undo removes a notification of that item or an older one, never of a newer one. */
  causeAt?: string;
  postId?: string | null;
  commentId?: string | null;
}

export function notificationItem(n: NewNotification, createdAt = new Date().toISOString()): NotificationItem {
  const id = newId();
  return {
    ...keys.notification(n.recipientId, n.cause),
    ...keys.notificationIndexes(n.recipientId, n.actorId, createdAt, id),
    type: 'NOTIFICATION',
    kind: n.kind,
    id,
    recipientId: n.recipientId,
    actorId: n.actorId,
    postId: n.postId ?? null,
    commentId: n.commentId ?? null,
    ...(n.causeAt ? { causeAt: n.causeAt } : {}),
    createdAt,
    expiresAt: Math.floor(Date.parse(createdAt) / 1000) + RETENTION_DAYS * 86_400,
  };
}

/** The count moves only for a notification newer than the recipient's read watermark. */
const countIt = (recipientId: string, by: 1 | -1, createdAt: string): TxItem => ({
  op: {
    Update: {
      TableName: TABLE,
      Key: keys.notificationState(recipientId),
      UpdateExpression: 'ADD unread :by',
      ConditionExpression: 'attribute_not_exists(readUpTo) OR readUpTo < :at',
      ExpressionAttributeValues: { ':by': by, ':at': createdAt },
    },
  },
});

/**
 * Adds a notification unless one of that cause is there already (a replayed change, or the
 * action done again while the undo's record has not been handled: it is kept, and now stands for
 * the newer item, its `causeAt` moved forward so that the older item's undo leaves it).
 */
export async function addNotification(n: NewNotification): Promise<void> {
  const item = notificationItem(n);
  const put: TxItem = { op: { Put: { TableName: TABLE, Item: item, ConditionExpression: 'attribute_not_exists(PK)' } } };
  try {
    await transact([put, countIt(n.recipientId, 1, item.createdAt)]);
  } catch (err) {
    if (!(err instanceof ConditionFailed)) throw err;
    if (err.index === 0) {
      if (n.causeAt) await standFor(n.recipientId, n.cause, n.causeAt);
      return;
    }
    // Marked read in the meantime: it is added as read, and counts nothing.
    await transact([put]).catch((e) => { if (!(e instanceof ConditionFailed)) throw e; });
  }
}

/** The notification of a cause stands for the item made at `causeAt`, unless it stands for a newer one already. */
async function standFor(recipientId: string, cause: string, causeAt: string): Promise<void> {
  await db.send(new UpdateCommand({
    TableName: TABLE,
    Key: keys.notification(recipientId, cause),
    UpdateExpression: 'SET causeAt = :at',
    ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(causeAt) OR causeAt < :at)',
    ExpressionAttributeValues: { ':at': causeAt },
  })).catch((e) => { if (!(e instanceof ConditionalCheckFailedException)) throw e; });
}

/**
 * Removes the notification of a cause (an undone action), moving the count if it was unread.
 * `upTo`: only one caused by an item created then or before (the undone item's createdAt): a
 * change record redriven late must not remove the notification of the action done again since.
 */
export async function removeNotification(recipientId: string, cause: string, upTo?: string): Promise<void> {
  const key = keys.notification(recipientId, cause);
  const found = (await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }))).Item as NotificationItem | undefined;
  if (found && !(upTo !== undefined && found.causeAt !== undefined && found.causeAt > upTo)) await removeItem(found);
}

/** Removes this very notification (not a later one of the same cause). */
export async function removeItem(n: Pick<NotificationItem, 'recipientId' | 'SK' | 'id' | 'createdAt'>): Promise<void> {
  const del: TxItem = {
    op: {
      Delete: {
        TableName: TABLE,
        Key: keys.notification(n.recipientId, n.SK),
        ConditionExpression: 'id = :id',
        ExpressionAttributeValues: { ':id': n.id },
      },
    },
  };
  try {
    await transact([del, countIt(n.recipientId, -1, n.createdAt)]);
  } catch (err) {
    if (!(err instanceof ConditionFailed)) throw err;
    if (err.index === 0) return; // gone already
    await transact([del]).catch((e) => { if (!(e instanceof ConditionFailed)) throw e; });
  }
}

export interface NotificationState {
  unread: number;
  readUpTo?: string;
}

export async function notificationState(recipientId: string): Promise<NotificationState> {
  const item = (await db.send(new GetCommand({ TableName: TABLE, Key: keys.notificationState(recipientId), ConsistentRead: true }))).Item;
  return { unread: Number(item?.unread ?? 0), ...(item?.readUpTo ? { readUpTo: String(item.readUpTo) } : {}) };
}

/** The state item's `unread` and `readUpTo` as stored (absent ones stay absent), for a change's record. */
export type StoredState = { unread?: number; readUpTo?: string };
const storedState = (item: Record<string, unknown> | undefined): StoredState =>
  ({ ...(item?.unread !== undefined ? { unread: Number(item.unread) } : {}), ...(item?.readUpTo !== undefined ? { readUpTo: String(item.readUpTo) } : {}) });

/**
 * Attempts of a mark conditioned on the state it read, with a jittered pause between them; a
 * mark that lost them all to notifications arriving writes without the condition (it always
 * succeeds), its record's `before` then the state as last read, a moment old.
 */
const MARK_ATTEMPTS = 8;
const pause = (attempt: number) => new Promise((r) => setTimeout(r, Math.random() * Math.min(200, 10 * 2 ** attempt)));

/**
 * Everything created up to now is read: one write, whatever the number of notifications.
 * `record(before, after)` is the change's trace record (contract section 9), written in the
 * same transaction. The write is conditioned on the state it was read as, so `before` is
 * exactly what it replaced: a notification that arrives in between fails the condition, and
 * the mark goes again from the state the failure returns (MARK_ATTEMPTS times at most: a
 * recipient of a steady stream of notifications still gets its mark).
 */
export async function markAllRead(
  recipientId: string,
  record: (before: StoredState, after: StoredState) => TxItem,
  opts: { now?: string; gate?: Promise<unknown> } = {},
): Promise<void> {
  const key = keys.notificationState(recipientId);
  const first = opts.now ?? new Date().toISOString();
  // `gate`: what must hold before anything is written (the caller's own read, which refuses an
  // ended session); the state is read beside it.
  const [stored] = await Promise.all([db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true })), opts.gate]);
  let before = storedState(stored.Item);
  for (let attempt = 1; ; attempt++) {
    // A new moment for each attempt after the first: a notification that made an attempt fail
    // was counted, and its createdAt (stamped before it committed) may be later than the moment
    // the mark began; a watermark behind it would leave it listed unread with the count at 0.
    const fresh = new Date().toISOString();
    const now = attempt === 1 || fresh < first ? first : fresh;
    if (before.readUpTo !== undefined && before.readUpTo >= now) {
      // A mark of a later moment already stands (another device's, which won the race): all
      // up to now is read, and what was counted after that mark is not this one's to clear.
      // The watermark never moves back; only the record is written.
      await transact([record(before, before)]);
      return;
    }
    const is = (name: 'unread' | 'readUpTo') => (before[name] === undefined ? `attribute_not_exists(${name})` : `${name} = :${name}`);
    const after = { unread: 0, readUpTo: now };
    const exact = attempt < MARK_ATTEMPTS;
    const update: TxItem = {
      op: {
        Update: {
          TableName: TABLE,
          Key: key,
          UpdateExpression: 'SET readUpTo = :now, unread = :zero',
          // The last attempt takes whatever the state is, but never a later mark's watermark.
          ConditionExpression: exact ? `${is('unread')} AND ${is('readUpTo')}` : 'attribute_not_exists(readUpTo) OR readUpTo < :now',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
          ExpressionAttributeValues: {
            ':now': now, ':zero': 0,
            ...(exact && before.unread !== undefined ? { ':unread': before.unread } : {}),
            ...(exact && before.readUpTo !== undefined ? { ':readUpTo': before.readUpTo } : {}),
          },
        },
      },
    };
    try {
      await transact([update, record(before, after)]);
      return;
    } catch (err) {
      if (!(err instanceof ConditionFailed) || err.index !== 0) throw err;
      before = storedState(err.items[0]);
      // The last attempt fails only under a later mark: the loop then writes the record alone.
      if (exact) await pause(attempt);
    }
  }
}

/**
 * How long the mark of a counted expiry stays: beyond the stream's 24 hours of records, after
 * which no record of it can come again (a dead letter names records; they are read back from
 * the stream, docs/OPERATIONS.md).
 */
export const EXPIRED_MARK_DAYS = 2;

/**
 * A notification DynamoDB's TTL removed: the count loses it if it was unread. (Deletions of
 * ours moved the count in their own transaction; TTL deletions bypass every transaction.)
 * Once: a stream batch is retried from its first failed record on, so this record may come
 * again after it was applied. The mark of the expiry goes in with the count's step, and a
 * record that finds it changes nothing. A read notification moves nothing and leaves no mark:
 * the watermark only moves forward, so it is read at every retry too.
 */
export async function forgetExpired(n: Pick<NotificationItem, 'recipientId' | 'createdAt' | 'id'>): Promise<void> {
  const mark: TxItem = {
    op: {
      Put: {
        TableName: TABLE,
        Item: { ...keys.notificationExpired(n.recipientId, n.id), type: 'NOTIFICATION_EXPIRED', expiresAt: Math.floor(Date.now() / 1000) + EXPIRED_MARK_DAYS * 86_400 },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
  };
  await transact([mark, countIt(n.recipientId, -1, n.createdAt)]).catch((e) => { if (!(e instanceof ConditionFailed)) throw e; });
}
