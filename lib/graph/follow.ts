// Follow and unfollow: each is ONE transaction holding the edge (put or deleted under a
// condition), both counters and the trace record, so counters equal edges under any
// concurrency. A repeated follow or an unfollow without a follow is a 200 no-op whose
// record is written on its own (the transaction's edge condition tells us which case it is).
import { TABLE } from '../db/client';
import type { TxItem } from '../db/transact';
import { keys } from '../keys';
import { FollowLimitReached, Forbidden, NotFound } from '../errors';
import { recordChange, recordNoChange } from '../audit/records';
import { diffState } from '../audit/diff';
import type { TraceContext } from '../audit/context';
import { FOLLOW_LIMIT, followEdge, followersCountOf, moveCounters } from './edges';
import { notGone } from '../account/gone';

export interface FollowResult {
  changed: boolean;
  followersCount: number;
}

const noBlock = (blockerId: string, blockedId: string, error: () => Forbidden | NotFound) => ({
  op: {
    ConditionCheck: {
      TableName: TABLE,
      Key: keys.block(blockerId, blockedId),
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  },
  onConditionFailed: error,
});

export async function follow(callerId: string, targetId: string, trace: TraceContext, payload: Record<string, unknown>): Promise<FollowResult> {
  const edge = followEdge(callerId, targetId, new Date().toISOString());
  const put: TxItem = { op: { Put: { TableName: TABLE, Item: edge, ConditionExpression: 'attribute_not_exists(PK)' } } };
  // The order of the items decides which answer wins when several conditions fail at once:
  // blocks and a missing target first, then "already following" (a no-op, even at the
  // limit), then the limit.
  const changed = await recordChange(trace, [
    noBlock(callerId, targetId, () => new Forbidden('You blocked this user. Unblock them to follow them.')),
    noBlock(targetId, callerId, () => new NotFound('user')),
    notGone(targetId, () => new NotFound('user')),
    moveCounters(targetId, { followersCount: 1 }, () => new NotFound('user')),
    put,
    {
      op: {
        Update: {
          TableName: TABLE,
          Key: keys.user(callerId),
          UpdateExpression: 'ADD followingCount :one',
          ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(followingCount) OR followingCount < :max)',
          ExpressionAttributeValues: { ':one': 1, ':max': FOLLOW_LIMIT },
        },
      },
      onConditionFailed: () => new FollowLimitReached(FOLLOW_LIMIT),
    },
  ], put, {
    type: 'USER_FOLLOWED',
    description: `User ${callerId} followed user ${targetId}.`,
    actorId: callerId,
    payload,
    diff: diffState(null, { followerId: callerId, followeeId: targetId, createdAt: edge.createdAt }),
  }, `User ${callerId} already follows user ${targetId}; nothing changed.`);
  return { changed, followersCount: await followersCountOf(targetId) };
}

export async function unfollow(callerId: string, targetId: string, trace: TraceContext, payload: Record<string, unknown>): Promise<FollowResult> {
  // Nobody follows themselves (and one transaction may not touch the user item twice).
  if (targetId === callerId) {
    await recordNoChange(trace, { type: 'USER_UNFOLLOWED', actorId: callerId, payload }, `User ${callerId} does not follow themselves; nothing changed.`);
    return { changed: false, followersCount: await followersCountOf(targetId) };
  }
  const del: TxItem = { op: { Delete: { TableName: TABLE, Key: keys.follow(callerId, targetId), ConditionExpression: 'attribute_exists(PK)' } } };
  const changed = await recordChange(trace, [
    // To someone they blocked, a user does not exist.
    noBlock(targetId, callerId, () => new NotFound('user')),
    moveCounters(targetId, { followersCount: -1 }, () => new NotFound('user')),
    del,
    moveCounters(callerId, { followingCount: -1 }),
  ], del, {
    type: 'USER_UNFOLLOWED',
    description: `User ${callerId} unfollowed user ${targetId}.`,
    actorId: callerId,
    payload,
    diff: diffState({ followerId: callerId, followeeId: targetId }, null),
  }, `User ${callerId} does not follow user ${targetId}; nothing changed.`);
  return { changed, followersCount: await followersCountOf(targetId) };
}
