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
