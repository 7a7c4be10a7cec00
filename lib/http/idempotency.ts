// Idempotency-Key (contract section 8): the same user repeating the same key within 24
// hours gets the first response again and nothing is created twice. The creation's own
// transaction stores the response under a condition (idempotencyItem), so two racing
// requests with one key can never both create.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import type { TxItem } from '../db/transact';
import { keys } from '../keys';
import { ApiError, ValidationError } from '../errors';
import type { ApiReply, ApiRequest } from './request';

const TTL_SECONDS = 24 * 3600;
const KEY = /^[\x21-\x7e]{1,255}$/;

/** Thrown when another request with the same key won the race; its stored answer is replayed. */
class IdempotentReplay extends ApiError {
  constructor() { super(409, 'IDEMPOTENT_REPLAY', 'This request was already made.'); }
}

const keyStore = new WeakMap<object, string>();

function keyOf(req: ApiRequest<unknown, unknown, unknown>): string | undefined {
  const key = req.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (!KEY.test(key)) throw ValidationError.field('idempotency-key', 'must be 1-255 visible ASCII characters');
  return key;
}

async function stored(userId: string, key: string): Promise<ApiReply | undefined> {
  const res = await db.send(new GetCommand({ TableName: TABLE, Key: keys.idempotency(userId, key), ConsistentRead: true }));
  const item = res.Item;
  if (!item || Number(item.expiresAt) * 1000 < Date.now()) return undefined;
  return { status: Number(item.status), body: JSON.parse(String(item.body)) as Record<string, unknown> };
}

export async function idempotency(req: ApiRequest<unknown, unknown, unknown>, run: () => Promise<ApiReply>): Promise<ApiReply> {
  const key = keyOf(req);
  if (!key) return run();
  const earlier = await stored(req.caller.userId, key);
  if (earlier) return earlier;
  keyStore.set(req, key);
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof IdempotentReplay)) throw err;
    const winner = await stored(req.caller.userId, key);
    if (!winner) throw err;
    return winner;
  }
}

/**
 * The Put that records this creation's answer, for the creation's transaction; none when
 * the request carries no Idempotency-Key. An expired record (TTL not yet swept) is replaced.
 */
export function idempotencyItem(req: ApiRequest<unknown, unknown, unknown>, reply: ApiReply): TxItem[] {
  const key = keyStore.get(req);
  if (!key) return [];
  const now = Math.floor(Date.now() / 1000);
  return [{
    op: {
      Put: {
        TableName: TABLE,
        Item: {
          ...keys.idempotency(req.caller.userId, key),
          status: reply.status ?? 200,
          body: JSON.stringify(reply.body),
          expiresAt: now + TTL_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(PK) OR expiresAt < :now',
        ExpressionAttributeValues: { ':now': now },
      },
    },
    onConditionFailed: () => new IdempotentReplay(),
  }];
}
