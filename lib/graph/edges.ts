// Small pieces the graph writes share: the edge items of follows and blocks, and the
// ConditionChecks/Updates that keep counters exact inside one transaction.
import { TABLE } from '../db/client';
import { batchGet, itemKey } from '../db/batch';
import type { TxItem } from '../db/transact';
import * as keys from '../keys';
import { NotFound } from '../errors';

/** A user follows at most this many accounts (contract section 6). */
export const FOLLOW_LIMIT = 7500;

export function followEdge(followerId: string, followeeId: string, createdAt: string) {
  return {
    ...keys.follow(followerId, followeeId),
    ...keys.followIndexes(followerId, followeeId, createdAt),
    type: 'FOLLOW',
    followerId,
    followeeId,
    createdAt,
  };
}

export function blockEdge(blockerId: string, blockedId: string, createdAt: string) {
  return {
    ...keys.block(blockerId, blockedId),
    ...keys.blockIndexes(blockerId, blockedId, createdAt),
    type: 'BLOCK',
    blockerId,
    blockedId,
    createdAt,
  };
}

/**
 * The block's mirror in the blocked user's partition (keys.blockedBy): no index keys, so it
 * costs one small write. Its type is not BLOCK, so the stream's reactions to blocks never see
 * it twice.
 */
export function blockMirror(blockerId: string, blockedId: string, createdAt: string) {
  return { ...keys.blockedBy(blockedId, blockerId), type: 'BLOCKED_BY', blockerId, blockedId, createdAt };
}

/** The target account must exist; its absence is a 404. */
export const targetExists = (userId: string): TxItem => ({
  op: { ConditionCheck: { TableName: TABLE, Key: keys.user(userId), ConditionExpression: 'attribute_exists(PK)' } },
  onConditionFailed: () => new NotFound('user'),
});

/** Moves counters of a user item by the given deltas; the user must exist. */
export function moveCounters(userId: string, deltas: Record<string, number>, onMissing?: () => NotFound): TxItem {
  const names: Record<string, string> = {};
  const values: Record<string, number> = {};
  const parts: string[] = [];
  // A change of the follow edges moves edgesV as well: the recent arrays are stale until the
  // stream catches up (lib/users/model.ts recentEdges).
  const all = deltas.followersCount || deltas.followingCount ? { ...deltas, edgesV: 1 } : deltas;
  for (const [field, delta] of Object.entries(all)) {
    if (delta === 0) continue;
    names[`#${field}`] = field;
    values[`:${field}`] = delta;
    parts.push(`#${field} :${field}`);
  }
  if (!parts.length) {
    return {
      op: { ConditionCheck: { TableName: TABLE, Key: keys.user(userId), ConditionExpression: 'attribute_exists(PK)' } },
      ...(onMissing ? { onConditionFailed: onMissing } : {}),
    };
  }
  return {
    op: {
      Update: {
        TableName: TABLE,
        Key: keys.user(userId),
        UpdateExpression: `ADD ${parts.join(', ')}`,
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
    ...(onMissing ? { onConditionFailed: onMissing } : {}),
  };
}

/** Which of the given edge keys exist, in one consistent BatchGet. */
export async function existing(edgeKeys: { PK: string; SK: string }[]): Promise<boolean[]> {
  const found = await batchGet(edgeKeys, { projection: 'createdAt' });
  return edgeKeys.map((k) => found.has(itemKey(k)));
}
