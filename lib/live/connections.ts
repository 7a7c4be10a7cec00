// A user's live connections and push subscriptions (contract section 20): one partition,
// `LIVE#<user>`, holding `CONN#<connectionId>` (its session, a TTL) and `PUSH#<id>` (its
// session, endpoint, keys and types). Whom a change reaches is one Query of it, so a user with
// neither costs one Query and nothing else (access pattern 51). A connection's owner is also
// kept under the connection id (`$disconnect` names only the connection).
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import { transact } from '../db/transact';
import * as keys from '../keys';

/**
 * A connection item outlives API Gateway's longest connection (2 hours) a little; its TTL
 * removes one whose $disconnect never came. Until DynamoDB removes it, a send finds it gone (410).
 */
export const CONNECTION_TTL_SECONDS = 2 * 3600 + 600;

export interface ConnectionItem {
  PK: string;
  SK: string;
  type: 'CONNECTION';
  connectionId: string;
  userId: string;
  sessionId: string;
  connectedAt: string;
  expiresAt: number;
}

export interface PushItem {
  PK: string;
  SK: string;
  type: 'PUSH_SUBSCRIPTION';
  id: string;
  userId: string;
  sessionId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  types: string[];
  createdAt: string;
}

export interface Targets {
  connections: ConnectionItem[];
  subscriptions: PushItem[];
}

/** Everything live of a user: one strongly consistent Query (a connection made a moment ago is seen). */
export async function targetsOf(userId: string): Promise<Targets> {
  const out: Targets = { connections: [], subscriptions: [] };
  const nowS = Math.floor(Date.now() / 1000);
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db.send(new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.live(userId) },
      ConsistentRead: true,
      ExclusiveStartKey: start,
    }));
    for (const item of res.Items ?? []) {
      if (item.type === 'CONNECTION' && Number(item.expiresAt) > nowS) out.connections.push(item as ConnectionItem);
      else if (item.type === 'PUSH_SUBSCRIPTION') out.subscriptions.push(item as PushItem);
    }
    start = res.LastEvaluatedKey;
  } while (start);
  return out;
}

export async function putConnection(userId: string, sessionId: string, connectionId: string, nowMs = Date.now()): Promise<void> {
  const item: ConnectionItem = {
    ...keys.connection(userId, connectionId), type: 'CONNECTION', connectionId, userId, sessionId,
    connectedAt: new Date(nowMs).toISOString(), expiresAt: Math.floor(nowMs / 1000) + CONNECTION_TTL_SECONDS,
  };
  const owner = { ...keys.connectionOwner(connectionId), type: 'CONNECTION_OWNER', userId, expiresAt: item.expiresAt };
  await transact([
    { op: { Put: { TableName: TABLE, Item: item } } },
    { op: { Put: { TableName: TABLE, Item: owner } } },
  ]);
}

/** Forgets a connection by its user and id (a 410, a closing). */
export async function forgetConnection(userId: string, connectionId: string): Promise<void> {
  await transact([
    { op: { Delete: { TableName: TABLE, Key: keys.connection(userId, connectionId) } } },
    { op: { Delete: { TableName: TABLE, Key: keys.connectionOwner(connectionId) } } },
  ]);
}

/** Forgets a connection by its id alone ($disconnect). */
export async function forgetConnectionById(connectionId: string): Promise<void> {
  const owner = (await db.send(new GetCommand({ TableName: TABLE, Key: keys.connectionOwner(connectionId), ConsistentRead: true }))).Item;
  if (owner) await forgetConnection(String(owner.userId), connectionId);
}
