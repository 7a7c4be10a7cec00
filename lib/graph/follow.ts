// Follow and unfollow: each is ONE transaction holding the edge (put or deleted under a
// condition), both counters and the trace record, so counters equal edges under any
// concurrency. The target's followersCount in the answer comes from the write itself (the
// transaction is conditioned on the count read with the target, lib/db/transact.ts
// countedChange). A repeated follow or an unfollow without a follow is a 200 no-op whose
// record is written on its own (the transaction's edge condition tells us which case it is).
import { TABLE } from '../db/client';
import type { Counter, TxItem } from '../db/transact';
import * as keys from '../keys';
import { FollowLimitReached, Forbidden, NotFound } from '../errors';
import { recordCountedChange, recordNoChange } from '../audit/records';
import { diffState } from '../audit/diff';
import type { TraceContext } from '../audit/context';
import { FOLLOW_LIMIT, followEdge, moveCounters } from './edges';
import type { CountedTarget } from './target';
import { notGone } from '../users/gone';
import type { UserItem } from '../users/model';
import { limitCondition } from './requests';

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

/** The target's followersCount, conditioned on the count read with the target: the answer needs no read after the write. */
const followersCounter = (target: CountedTarget, delta: 1 | -1): Counter => ({
  key: keys.user(target.id), field: 'followersCount', seen: target.followersCount, delta, onMissing: () => new NotFound('user'),
  stamp: { field: 'followersCountAt', seen: target.followersCountAt },
  bump: 'edgesV',
});

/** `me`: the caller's item as read, whose pending requests count toward the follow limit (lib/graph/requests.ts). */
export async function follow(callerId: string, target: CountedTarget, trace: TraceContext, payload: Record<string, unknown>, me?: Partial<Pick<UserItem, 'followingCount' | 'requestsOut'>>): Promise<FollowResult> {
  const limit = limitCondition(me ?? {}, 'followingCount');
  const targetId = target.id;
  const edge = followEdge(callerId, targetId, new Date().toISOString());
  const put: TxItem = { op: { Put: { TableName: TABLE, Item: edge, ConditionExpression: 'attribute_not_exists(PK)' } } };
  // The order of the items decides which answer wins when several conditions fail at once:
  // blocks and a missing target first, then "already following" (a no-op, even at the
  // limit), then the limit.
  const { changed, count } = await recordCountedChange(trace, (followers) => [
    noBlock(callerId, targetId, () => new Forbidden('You blocked this user. Unblock them to follow them.')),
    noBlock(targetId, callerId, () => new NotFound('user')),
    notGone(targetId, () => new NotFound('user')),
    followers,
    put,
    {
      op: {
        Update: {
          TableName: TABLE,
          Key: keys.user(callerId),
          // edgesV: the caller's recent arrays are stale until the stream catches up (lib/graph/recent.ts).
          UpdateExpression: 'ADD followingCount :one, edgesV :one',
          ConditionExpression: `attribute_exists(PK) AND ${limit.expression}`,
          ExpressionAttributeValues: { ':one': 1, ...limit.values },
        },
      },
      onConditionFailed: () => new FollowLimitReached(FOLLOW_LIMIT),
    },
  ], put, followersCounter(target, 1), {
    type: 'USER_FOLLOWED',
    description: `User ${callerId} followed user ${targetId}.`,
    actorId: callerId,
    payload,
    diff: diffState(null, { followerId: callerId, followeeId: targetId, createdAt: edge.createdAt }),
  }, `User ${callerId} already follows user ${targetId}; nothing changed.`);
  return { changed, followersCount: count };
}

export async function unfollow(callerId: string, target: CountedTarget, trace: TraceContext, payload: Record<string, unknown>): Promise<FollowResult> {
  const targetId = target.id;
  // Nobody follows themselves (and one transaction may not touch the user item twice).
  if (targetId === callerId) {
    await recordNoChange(trace, { type: 'USER_UNFOLLOWED', actorId: callerId, payload }, `User ${callerId} does not follow themselves; nothing changed.`);
    return { changed: false, followersCount: target.followersCount };
  }
  const del: TxItem = { op: { Delete: { TableName: TABLE, Key: keys.follow(callerId, targetId), ConditionExpression: 'attribute_exists(PK)' } } };
  const { changed, count } = await recordCountedChange(trace, (followers) => [
    // To someone they blocked, a user does not exist; nor does an account hidden from everyone
    // (suspended, or deleted and not yet cleaned up: contract sections 13 and 15).
    noBlock(targetId, callerId, () => new NotFound('user')),
    notGone(targetId, () => new NotFound('user')),
    followers,
    del,
    moveCounters(callerId, { followingCount: -1 }),
  ], del, followersCounter(target, -1), {
    type: 'USER_UNFOLLOWED',
    description: `User ${callerId} unfollowed user ${targetId}.`,
    actorId: callerId,
    payload,
    diff: diffState({ followerId: callerId, followeeId: targetId }, null),
  }, `User ${callerId} does not follow user ${targetId}; nothing changed.`);
  return { changed, followersCount: count };
}

/**
 * The owner ends a follower's follow (contract section 18): the unfollow's transaction, recorded
 * as the owner's. Someone who does not follow the owner: a 200 that changes nothing.
 */
export async function removeFollower(owner: CountedTarget, followerId: string, trace: TraceContext, payload: Record<string, unknown>): Promise<FollowResult> {
  const entry = { type: 'FOLLOWER_REMOVED', actorId: owner.id, payload };
  if (followerId === owner.id) {
    await recordNoChange(trace, entry, `User ${owner.id} does not follow themselves; nothing changed.`);
    return { changed: false, followersCount: owner.followersCount };
  }
  const del: TxItem = { op: { Delete: { TableName: TABLE, Key: keys.follow(followerId, owner.id), ConditionExpression: 'attribute_exists(PK)' } } };
  const { changed, count } = await recordCountedChange(trace, (followers) => [
    followers,
    del,
    moveCounters(followerId, { followingCount: -1 }),
  ], del, followersCounter(owner, -1), {
    ...entry,
    description: `User ${owner.id} removed the follower ${followerId}.`,
    diff: diffState({ followerId, followeeId: owner.id }, null),
  }, `User ${followerId} does not follow user ${owner.id}; nothing changed.`);
  return { changed, followersCount: count };
}
