// Block and unblock. The block edge and its mirror in the blocked user's partition
// (keys.blockedBy) are written and deleted together. Blocking removes the follows between
// the two users in both directions, with their counters, in the same transaction as the block edge: the
// follow edges are read first, then deleted under attribute_exists (or asserted absent
// under attribute_not_exists), so a follow that lands in between makes the transaction
// fail and the block is retried on a fresh read. Follow transactions in turn assert
// that no block exists, so a follow and a block can never both survive.
//
// To a user blocked by another, that other does not exist (contract section 6): blocking or
// unblocking an account that blocks the caller is a 404 like every other route about it. (A
// 200 told the blocked user of the block, and a block back put the blocker, live, on the
// blocked user's own blocked list.) The block's transaction asserts it (notBlockedBy), so two
// users blocking each other at the same moment end with one block, not two.
import { TABLE } from '../db/client';
import { ConditionFailed, transact, transactChange, type TxItem } from '../db/transact';
import * as keys from '../keys';
import { NotFound } from '../errors';
import { logItem, recordNoChange, writeLog, type LogEntry } from '../audit/records';
import { diffState, noChange } from '../audit/diff';
import type { TraceContext } from '../audit/context';
import { blockEdge, blockMirror, existing, moveCounters, targetExists } from './edges';
import { notGone } from '../users/gone';

const ATTEMPTS = 6;

/** The target has not blocked the caller: else, to the caller, the target does not exist. */
const notBlockedBy = (targetId: string, callerId: string): TxItem => ({
  op: { ConditionCheck: { TableName: TABLE, Key: keys.block(targetId, callerId), ConditionExpression: 'attribute_not_exists(PK)' } },
  onConditionFailed: () => new NotFound('user'),
});

/** Delete the edge if we saw it, else assert it is still absent: either way the read must still hold. */
function stillAsRead(key: { PK: string; SK: string }, exists: boolean): TxItem {
  return exists
    ? { op: { Delete: { TableName: TABLE, Key: key, ConditionExpression: 'attribute_exists(PK)' } } }
    : { op: { ConditionCheck: { TableName: TABLE, Key: key, ConditionExpression: 'attribute_not_exists(PK)' } } };
}

export async function block(callerId: string, targetId: string, trace: TraceContext, payload: Record<string, unknown>): Promise<{ changed: boolean }> {
  for (let attempt = 1; ; attempt++) {
    const [userExists, iFollow, theyFollow, alreadyBlocked, gone, blockedByTarget, iRequested, theyRequested] = await existing([
      keys.user(targetId), keys.follow(callerId, targetId), keys.follow(targetId, callerId), keys.block(callerId, targetId), keys.gone(targetId),
      keys.block(targetId, callerId), keys.followRequest(callerId, targetId), keys.followRequest(targetId, callerId),
    ]);
    // An account hidden from everyone (suspended, or deleted and not yet cleaned up), or one that
    // blocks the caller, does not exist to the caller (contract sections 6, 13 and 15), already
    // blocked or not; the transaction asserts both again, so a block never lands behind a
    // deletion's cleanup, nor beside a block the other way.
    if (!userExists || gone || blockedByTarget) throw new NotFound('user');
    if (alreadyBlocked) {
      await writeLog(trace, {
        type: 'USER_BLOCKED',
        description: `User ${callerId} already blocks user ${targetId}; nothing changed.`,
        actorId: callerId,
        payload,
        diff: noChange(),
      });
      return { changed: false };
    }
    const edge = blockEdge(callerId, targetId, new Date().toISOString());
    const a = iFollow ? 1 : 0;
    const b = theyFollow ? 1 : 0;
    // Pending follow requests either way go with the block (contract section 18); their
    // notifications go with them (the stream's undo, and the block's own sweep).
    const ra = iRequested ? 1 : 0;
    const rb = theyRequested ? 1 : 0;
    const removed = [iFollow && 'the follow of the blocker', theyFollow && 'the follow of the blocked user'].filter(Boolean);
    try {
      await transact([
        moveCounters(targetId, { followersCount: -a, followingCount: -b, requestsOut: -rb }, () => new NotFound('user')),
        notGone(targetId, () => new NotFound('user')),
        notBlockedBy(targetId, callerId),
        moveCounters(callerId, { blockedCount: 1, followingCount: -a, followersCount: -b, requestsOut: -ra }),
        { op: { Put: { TableName: TABLE, Item: edge, ConditionExpression: 'attribute_not_exists(PK)' } } },
        { op: { Put: { TableName: TABLE, Item: blockMirror(callerId, targetId, edge.createdAt) } } },
        stillAsRead(keys.follow(callerId, targetId), iFollow!),
        stillAsRead(keys.follow(targetId, callerId), theyFollow!),
        stillAsRead(keys.followRequest(callerId, targetId), iRequested!),
        stillAsRead(keys.followRequest(targetId, callerId), theyRequested!),
        logItem(trace, {
          type: 'USER_BLOCKED',
          description: `User ${callerId} blocked user ${targetId}${removed.length ? `, removing ${removed.join(' and ')}` : ''}.`,
          actorId: callerId,
          payload,
          diff: diffState(null, { blockerId: callerId, blockedId: targetId, createdAt: edge.createdAt }),
        }),
      ]);
      return { changed: true };
    } catch (err) {
      // The follows or the block moved since we read them: read again.
      if (!(err instanceof ConditionFailed) || attempt >= ATTEMPTS) throw err;
    }
  }
}

export async function unblock(callerId: string, targetId: string, trace: TraceContext, payload: Record<string, unknown>): Promise<{ changed: boolean }> {
  // Nobody blocks themselves (and one transaction may not touch the user item twice).
  if (targetId === callerId) {
    await recordNoChange(trace, { type: 'USER_UNBLOCKED', actorId: callerId, payload }, `User ${callerId} does not block themselves; nothing changed.`);
    return { changed: false };
  }
  const del: TxItem = { op: { Delete: { TableName: TABLE, Key: keys.block(callerId, targetId), ConditionExpression: 'attribute_exists(PK)' } } };
  // The mirror goes with the edge (unconditionally: the edge's condition decides the no-op).
  const mirror: TxItem = { op: { Delete: { TableName: TABLE, Key: keys.blockedBy(targetId, callerId) } } };
  // An account hidden from everyone does not exist to the caller: 404, and the block stays
  // (unblocking it is for after its unsuspension; a deletion's cleanup removes it).
  const entry: LogEntry = {
    type: 'USER_UNBLOCKED',
    description: `User ${callerId} unblocked user ${targetId}.`,
    actorId: callerId,
    payload,
    diff: diffState({ blockerId: callerId, blockedId: targetId }, null),
  };
  const changed = await transactChange([targetExists(targetId), notGone(targetId, () => new NotFound('user')), del, mirror, moveCounters(callerId, { blockedCount: -1 }), logItem(trace, entry)], del);
  if (!changed) {
    // No block of the caller's to remove. One that blocks the caller does not exist to it: 404,
    // as every route about it. (Where both blocked each other, each may still remove its own:
    // a 404 then would tell it of the other's block, and leave both blocks standing for good.)
    const [blockedByTarget] = await existing([keys.block(targetId, callerId)]);
    if (blockedByTarget) throw new NotFound('user');
    await recordNoChange(trace, entry, `User ${callerId} does not block user ${targetId}; nothing changed.`);
  }
  return { changed };
}
