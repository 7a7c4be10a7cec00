// TransactWriteItems with the two things every caller needs: conflicts between racing
// transactions are retried (they never change data), and a failed condition is turned
// into the error the caller named for that item.
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { db } from './client';
import type { ApiError } from '../errors';

export type TxOp = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export interface TxItem {
  op: TxOp;
  /** Thrown when this item's condition fails; without it, a ConditionFailed is thrown. */
  onConditionFailed?: () => ApiError;
}

/** A condition of the transaction failed and its item named no error of its own. */
export class ConditionFailed extends Error {
  constructor(readonly index: number, readonly item?: Record<string, unknown>) {
    super(`Transaction condition ${index} failed`);
  }
}

const MAX_ATTEMPTS = 12;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function transact(items: TxItem[], token?: string): Promise<void> {
  if (items.length === 0) return;
  if (items.length > 100) throw new Error(`A transaction holds at most 100 items, got ${items.length}`);
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
      const failed = reasons.findIndex((r) => r.Code === 'ConditionalCheckFailed');
      if (failed >= 0) {
        const named = items[failed]?.onConditionFailed;
        if (named) throw named();
        throw new ConditionFailed(failed, reasons[failed]?.Item as Record<string, unknown> | undefined);
      }
      const retriable = reasons.some((r) => r.Code === 'TransactionConflict' || r.Code === 'ThrottlingError');
      if (!retriable || attempt >= MAX_ATTEMPTS) throw err;
      await sleep(Math.random() * Math.min(400, 10 * 2 ** attempt));
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
