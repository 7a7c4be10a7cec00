// BatchGetItem with the two limits every caller would otherwise forget: at most 100
// keys a request (larger sets are split and sent in parallel) and UnprocessedKeys,
// which are retried with backoff until none are left.
import { BatchGetCommand, BatchWriteCommand, type BatchWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client';

export type Key = { PK: string; SK: string };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const keyOf = (k: { PK: unknown; SK: unknown }) => `${String(k.PK)}\u0000${String(k.SK)}`;

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Unprocessed keys or items are retried this many times, then the request fails (a 500, not a timeout). */
export const BATCH_ATTEMPTS = 10;

async function backOff(attempt: number): Promise<void> {
  if (attempt >= BATCH_ATTEMPTS) throw new Error(`DynamoDB left items unprocessed after ${BATCH_ATTEMPTS} attempts`);
  if (attempt) await sleep(Math.min(1000, 20 * 2 ** attempt));
}

/** Items by key, in a Map keyed by `PK\0SK`; missing items are simply absent. */
export async function batchGet<T = Record<string, unknown>>(
  keys: Key[],
  opts: { projection?: string; names?: Record<string, string>; consistent?: boolean } = {},
): Promise<Map<string, T>> {
  const unique = [...new Map(keys.map((k) => [keyOf(k), k])).values()];
  const found = new Map<string, T>();
  await Promise.all(chunks(unique, 100).map(async (chunk) => {
    let pending: Key[] = chunk;
    for (let attempt = 0; pending.length; attempt++) {
      await backOff(attempt);
      const res = await db.send(new BatchGetCommand({
        RequestItems: {
          [TABLE]: {
            Keys: pending,
            ConsistentRead: opts.consistent ?? true,
            // The key attributes are always projected: results are matched to keys by them.
            ...(opts.projection ? { ProjectionExpression: `PK, SK, ${opts.projection}`, ExpressionAttributeNames: opts.names } : {}),
          },
        },
      }));
      for (const item of res.Responses?.[TABLE] ?? []) found.set(keyOf(item as Key), item as T);
      pending = (res.UnprocessedKeys?.[TABLE]?.Keys ?? []) as Key[];
    }
  }));
  return found;
}

export const itemKey = (k: Key) => keyOf(k);

type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

/**
 * BatchWriteItem in chunks of 25, retrying UnprocessedItems; for bulk loads, fan-outs and
 * cleanups. `parallel` chunks are in flight at once (default 1: one after the other).
 */
export async function batchWrite(requests: WriteRequest[], opts: { parallel?: number } = {}): Promise<void> {
  const all = chunks(requests, 25);
  const send = async (chunk: WriteRequest[]) => {
    let pending = chunk;
    for (let attempt = 0; pending.length; attempt++) {
      await backOff(attempt);
      const res = await db.send(new BatchWriteCommand({ RequestItems: { [TABLE]: pending } }));
      pending = (res.UnprocessedItems?.[TABLE] ?? []) as WriteRequest[];
    }
  };
  const parallel = Math.max(1, opts.parallel ?? 1);
  for (let i = 0; i < all.length; i += parallel) await Promise.all(all.slice(i, i + parallel).map(send));
}
