// Accounts hidden from everyone: a suspended account (contract section 15) and a deleted one
// until its cleanup has removed it (section 13). Each has one GONE item (keys.gone), written in
// the transaction that suspends or deletes the account, so the account and everything it wrote
// vanish at once. Nothing reads the flag on its own: to every viewer such an account is one
// that blocked them, so the block filters of section 6 hide it everywhere they hide a blocker
// (lib/graph/relations.ts reads the item beside the block edges; lib/graph/hidden.ts puts the
// GONE partition into every viewer's `blockedBy`; the like, bookmark and follow transactions
// check it as they check a block). Every transaction that puts or removes one also moves the
// partition's version (goneChanged), which keeps each instance's copy of it exact.
import { TABLE } from '../db/client';
import type { TxItem } from '../db/transact';
import type { ApiError } from '../errors';
import * as keys from '../keys';

export type GoneReason = 'suspended' | 'deleted';

export interface GoneItem {
  PK: string;
  SK: string;
  type: 'GONE';
  userId: string;
  reason: GoneReason;
  since: string;
  /** Deletion: the cleanup jobs still running (a string set; absent once every one is done). */
  jobsLeft?: Set<string>;
}

/** A condition of a transaction: the account is not hidden from everyone. */
export const notGone = (userId: string, error: () => ApiError): TxItem => ({
  op: { ConditionCheck: { TableName: TABLE, Key: keys.gone(userId), ConditionExpression: 'attribute_not_exists(PK)' } },
  onConditionFailed: error,
});

/** Hides the account from everyone (a Put: a suspended account being deleted becomes a deletion). */
export function goneItem(userId: string, reason: GoneReason, since: string, jobsLeft?: string[]): TxItem {
  const item: GoneItem = {
    ...keys.gone(userId), type: 'GONE', userId, reason, since, ...(jobsLeft?.length ? { jobsLeft: new Set(jobsLeft) } : {}),
  };
  return { op: { Put: { TableName: TABLE, Item: item } } };
}

/**
 * Every transaction that puts or removes a GONE item carries this: it moves the partition's
 * version, which tells each instance's copy of the partition that it is out of date
 * (lib/graph/hidden.ts goneIds). One small item; only suspensions, unsuspensions and the two
 * ends of a deletion write it, and conflicting ones retry (lib/db/transact.ts).
 */
export const goneChanged = (): TxItem => ({
  op: {
    Update: {
      TableName: TABLE,
      Key: keys.goneVersion(),
      UpdateExpression: 'SET #type = :type ADD v :one',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: { ':type': 'GONE_VERSION', ':one': 1 },
    },
  },
});

/** Shows a suspended account again; a deleted one's item is left alone (its cleanup removes it). */
export const unsuspended = (userId: string, error: () => ApiError): TxItem => ({
  op: {
    Delete: {
      TableName: TABLE,
      Key: keys.gone(userId),
      ConditionExpression: 'reason = :suspended',
      ExpressionAttributeValues: { ':suspended': 'suspended' },
    },
  },
  onConditionFailed: error,
});
