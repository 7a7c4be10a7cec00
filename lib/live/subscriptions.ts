// A user's Web Push subscriptions (contract section 20): `LIVE#<user>` / `PUSH#<id>`, each of the
// session that made it (it ends with it: lib/live/reactions.ts). Making one for an endpoint the
// user has already replaces that one; a user keeps PUSH_MAX at most (the oldest goes).
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import { transact, ConditionFailed, type TxItem } from '../db/transact';
import * as keys from '../keys';
import { newId } from '../ids';
import type { PushItem } from './connections';

export const PUSH_MAX = 20;
export const NOTIFICATION_TYPES = ['FOLLOW', 'POST_LIKE', 'COMMENT', 'REPLY', 'COMMENT_LIKE', 'FOLLOW_REQUEST', 'FOLLOW_REQUEST_APPROVED', 'MENTION'] as const;

export interface SubscriptionView { _id: string; types: string[]; createdAt: string }
export const view = (s: PushItem): SubscriptionView => ({ _id: s.id, types: s.types, createdAt: s.createdAt });

/** The user's subscriptions, oldest first (ids are ULIDs): one Query of its LIVE# partition's PUSH# range. */
export async function subscriptionsOf(userId: string): Promise<PushItem[]> {
  const out: PushItem[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db.send(new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
      ExpressionAttributeValues: { ':pk': keys.live(userId), ':p': keys.PUSH_PREFIX },
      ConsistentRead: true,
      ExclusiveStartKey: start,
    }));
    out.push(...((res.Items ?? []) as PushItem[]));
    start = res.LastEvaluatedKey;
  } while (start);
  return out;
}

/** Subscribes; `log` is the trace record written in the same transaction (contract section 9). */
export async function subscribe(userId: string, sessionId: string, s: { endpoint: string; p256dh: string; auth: string; types: string[] }, log?: TxItem): Promise<PushItem> {
  const existing = await subscriptionsOf(userId);
  const replaced = existing.filter((e) => e.endpoint === s.endpoint);
  const others = existing.filter((e) => e.endpoint !== s.endpoint);
  const dropped = others.slice(0, Math.max(0, others.length - (PUSH_MAX - 1)));
  const item: PushItem = {
    ...keys.pushSubscription(userId, newId()), type: 'PUSH_SUBSCRIPTION', id: '', userId, sessionId,
    endpoint: s.endpoint, p256dh: s.p256dh, auth: s.auth, types: s.types, createdAt: new Date().toISOString(),
  };
  item.id = item.SK.slice(keys.PUSH_PREFIX.length);
  const ops: TxItem[] = [
    { op: { Put: { TableName: TABLE, Item: item } } },
    ...[...replaced, ...dropped].map((e): TxItem => ({ op: { Delete: { TableName: TABLE, Key: { PK: e.PK, SK: e.SK } } } })),
    ...(log ? [log] : []),
  ];
  await transact(ops);
  return item;
}

/** Removes one of the user's subscriptions, with its trace record (`log`); false when it has none of that id. */
export async function unsubscribe(userId: string, id: string, log?: TxItem): Promise<boolean> {
  try {
    await transact([{ op: { Delete: { TableName: TABLE, Key: keys.pushSubscription(userId, id), ConditionExpression: 'attribute_exists(PK)' } } }, ...(log ? [log] : [])]);
    return true;
  } catch (err) {
    if (err instanceof ConditionFailed) return false;
    throw err;
  }
}
