// TransactWriteItems with the two things every caller needs: conflicts between racing
// transactions are retried (they never change data), and a failed condition is turned
// into the error the caller named for that item.
import { GetCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { TransactionCanceledException, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { db, TABLE } from './client';
import type { ApiError } from '../errors';

export type TxOp = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export interface TxItem {
  op: TxOp;
  /** Thrown when this item's condition fails; without it, a ConditionFailed is thrown. */
  onConditionFailed?: () => ApiError;
}

/** A condition of the transaction failed and its item named no error of its own. */
export class ConditionFailed extends Error {
  constructor(
    readonly index: number,
    /** The first failed item as it stood, marshalled (as the low-level client returns it). */
    readonly item?: Record<string, unknown>,
    /** Every item whose condition failed, in order (`index` is the first). */
    readonly failed: number[] = [index],
    /** By item index, unmarshalled: the item as it stood, for the items that asked for it (ReturnValuesOnConditionCheckFailure). */
    readonly items: (Record<string, unknown> | undefined)[] = [],
  ) {
    super(`Transaction condition ${index} failed`);
  }
}

/** A cancellation reason's item: the low-level client leaves it marshalled. */
const plain = (item: Record<string, unknown> | undefined): Record<string, unknown> | undefined =>
  item ? unmarshall(item as Record<string, AttributeValue>) : undefined;

/**
 * Conflict retries (TransactionConflict, throttling): exponential backoff with full jitter,
 * bounded by attempts and by time. Transactions on one item serialize: when 50 race for a
 * hot post, most attempts conflict, and each conflicted attempt still costs the item a
 * slot. A cap of 1 s lets the racers spread out until the item's rate is enough for all
 * (a 400 ms cap kept 50 racers trying ~125 times a second at an item that takes a few
 * dozen, and some ran out of attempts). The time bound leaves the function's 10 s
 * (serverless.yml) room to answer the error rather than be cut off by it.
 */
const MAX_ATTEMPTS = 25;
const RETRY_BUDGET_MS = 7_000;
const BACKOFF_BASE_MS = 20;
const BACKOFF_CAP_MS = 1_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function transact(items: TxItem[], token?: string): Promise<void> {
  if (items.length === 0) return;
  if (items.length > 100) throw new Error(`A transaction holds at most 100 items, got ${items.length}`);
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      await db.send(new TransactWriteCommand({
        TransactItems: items.map((i) => i.op),
        ClientRequestToken: token,
      }));
      return;
    } catch (err) {
      if (!(err instanceof TransactionCanceledException)) throw err;
      const reasons = err.CancellationReasons ?? [];
      const failed = reasons.flatMap((r, i) => (r.Code === 'ConditionalCheckFailed' ? [i] : []));
      if (failed.length) {
        const first = failed[0]!;
        const named = items[first]?.onConditionFailed;
        if (named) throw named();
        const returned = reasons.map((r) => plain(r.Item as Record<string, unknown> | undefined));
        throw new ConditionFailed(first, reasons[first]?.Item as Record<string, unknown> | undefined, failed, returned);
      }
      const retriable = reasons.some((r) => r.Code === 'TransactionConflict' || r.Code === 'ThrottlingError');
      if (!retriable || attempt >= MAX_ATTEMPTS || Date.now() - started > RETRY_BUDGET_MS) throw err;
      await sleep(Math.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt));
    }
  }
}

/**
 * An idempotent change: true when the transaction went through, false when the one item
 * that failed was `edge` (the relation was already as asked: a no-op, nothing written).
 * Any other failed condition is thrown as transact() throws it.
 */
export async function transactChange(items: TxItem[], edge: TxItem): Promise<boolean> {
  try {
    await transact(items);
    return true;
  } catch (err) {
    if (err instanceof ConditionFailed && items[err.index] === edge) return false;
    throw err;
  }
}

/** A counter that a change moves and whose new value the answer carries (a post's likesCount, a user's followersCount). */
export interface Counter {
  key: { PK: string; SK: string };
  field: string;
  /** The value read before the change, in the round trip of the caller's own read. */
  seen: number;
  delta: 1 | -1;
  /** The error when the counter's item does not exist. */
  onMissing: () => ApiError;
  /**
   * An attribute of the same item that every step sets to the time of the change (epoch ms),
   * and its value as read with `seen`: a counter moved less than HOT_WINDOW_MS before the
   * read is hot, and its change skips the optimistic attempt that would fail.
   */
  stamp: { field: string; seen: number | undefined };
  /** An attribute of the same item that every step moves by 1 (a version of what the counter counts). */
  bump?: string;
}

export interface Counted {
  changed: boolean;
  /** The counter's value right after this change committed (or, for a no-op, as the change found it). */
  count: number;
}

/**
 * Optimistic attempts before a counted change stops conditioning on the value it saw: on a
 * quiet item the first attempt commits; on a hot one every racing change moves the counter
 * between our read and our write, so after this many it takes the blind ADD and reads back.
 */
export const OPTIMISTIC_ATTEMPTS = 1;

/**
 * A counter changed this recently is hot: racing changes will have moved it before ours
 * arrives, so the optimistic attempt is skipped (it would cost the item a transaction slot
 * to fail). Measured on the benchmark's hot post (docs/PERFORMANCE.md, "A hot post").
 */
export const HOT_WINDOW_MS = 1_000;

/**
 * The counter's step: ADD the delta, on condition that the item exists and, when `seen` is
 * given, that the counter still holds it (an absent counter is 0). A failed condition
 * returns the item as it stands, so the next attempt needs no read.
 */
export function counterStep(c: Counter, seen: number | undefined): TxItem {
  const base = {
    TableName: TABLE,
    Key: c.key,
    UpdateExpression: `ADD #c :by${c.bump ? ', #v :one' : ''} SET #at = :at`,
    ExpressionAttributeNames: { '#c': c.field, '#at': c.stamp.field, ...(c.bump ? { '#v': c.bump } : {}) },
  };
  const at = Date.now();
  const one = c.bump ? { ':one': 1 } : {};
  if (seen === undefined) {
    return {
      op: { Update: { ...base, ConditionExpression: 'attribute_exists(PK)', ExpressionAttributeValues: { ':by': c.delta, ':at': at, ...one } } },
      onConditionFailed: c.onMissing,
    };
  }
  return {
    op: {
      Update: {
        ...base,
        ConditionExpression: seen === 0 ? 'attribute_exists(PK) AND (attribute_not_exists(#c) OR #c = :seen)' : 'attribute_exists(PK) AND #c = :seen',
        ExpressionAttributeValues: { ':by': c.delta, ':seen': seen, ':at': at, ...one },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
  };
}

/**
 * An idempotent change (see transactChange) whose answer carries a counter's new value with
 * no read after the write. A TransactWriteItems returns no values, so the transaction
 * carries the value the caller saw as the counter's condition: when it commits, the counter
 * went from `seen` to `seen + delta` atomically with the change, and that is the answer.
 * When another change moved the counter first, the failed condition hands back the item
 * as it stands (a later optimistic attempt would use it with no read). After
 * OPTIMISTIC_ATTEMPTS, or at once on a hot counter (changed within HOT_WINDOW_MS of the
 * read), the change is made with a blind ADD and the counter read back: the old path,
 * one more round trip, never a failure. `items(step)` builds the transaction around the
 * counter's step; `edge` is the item whose failed condition makes the request a no-op.
 */
export async function countedChange(items: (step: TxItem) => TxItem[], edge: TxItem, c: Counter): Promise<Counted> {
  let seen = c.seen;
  const hot = c.stamp.seen !== undefined && Date.now() - c.stamp.seen < HOT_WINDOW_MS;
  for (let attempt = 1; !hot && attempt <= OPTIMISTIC_ATTEMPTS; attempt++) {
    const step = counterStep(c, seen);
    const list = items(step);
    try {
      await transact(list);
      return { changed: true, count: seen + c.delta };
    } catch (err) {
      if (!(err instanceof ConditionFailed)) throw err;
      const stepAt = list.indexOf(step);
      const edgeFailed = err.failed.includes(list.indexOf(edge));
      if (!err.failed.includes(stepAt)) {
        if (edgeFailed && err.index === list.indexOf(edge)) return { changed: false, count: seen };
        throw err;
      }
      const now = err.items[stepAt];
      if (!now) throw c.onMissing();
      seen = Number(now[c.field] ?? 0);
      // Already as asked: a no-op, and the counter as it stands is the answer.
      if (edgeFailed) return { changed: false, count: seen };
    }
  }
  const changed = await transactChange(items(counterStep(c, undefined)), edge);
  const res = await db.send(new GetCommand({ TableName: TABLE, Key: c.key, ProjectionExpression: '#c', ExpressionAttributeNames: { '#c': c.field }, ConsistentRead: true }));
  return { changed, count: Number(res.Item?.[c.field] ?? 0) };
}
