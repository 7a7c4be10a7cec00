// Direct reads of the table, for tests that check what was (or was not) written.
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../../lib/db/client';

export async function getItem(key: { PK: string; SK: string }) {
  return (await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }))).Item;
}

export async function queryAll(pk: string) {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db.send(new QueryCommand({
      TableName: TABLE, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': pk },
      ConsistentRead: true, ExclusiveStartKey: start,
    }));
    items.push(...(res.Items ?? []));
    start = res.LastEvaluatedKey;
  } while (start);
  return items;
}

/** The DynamoDB requests fn sends through the shared client, as sent (a spy that calls through). */
export async function requestsOf<T>(fn: () => Promise<T>): Promise<{ result: T; inputs: Record<string, unknown>[] }> {
  const send = jest.spyOn(db, 'send');
  try {
    const result = await fn();
    return { result, inputs: send.mock.calls.map((c) => ((c[0] as { input?: Record<string, unknown> }).input ?? {})) };
  } finally {
    send.mockRestore();
  }
}
