// Follow requests (contract section 18). Following a private account puts a request item
// (keys.followRequest, in the requester's partition) instead of a follow edge; counts stay as
// they are, but the requester's `requestsOut` moves, and pending requests count toward the
// follow limit. Approving turns the request into a follow edge in one transaction (the edge
// carries `approved`, so the stream gives the requester FOLLOW_REQUEST_APPROVED instead of
// giving the owner FOLLOW); rejecting or cancelling deletes it. The FOLLOW_REQUEST notification
// is the stream's reaction to the request item and goes with it (lib/notifications/reactions.ts).
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import { ConditionFailed, countedChange, transact, type Counter, type TxItem } from '../db/transact';
import * as keys from '../keys';
import { INDEX } from '../keys';
import { FollowLimitReached, Forbidden, NotFound } from '../errors';
import { logItem, recordNoChange } from '../audit/records';
import { diffState } from '../audit/diff';
import type { TraceContext } from '../audit/context';
import { FOLLOW_LIMIT, followEdge, moveCounters } from './edges';
import type { CountedTarget } from './target';
import { notGone } from '../users/gone';
import type { UserItem } from '../users/model';

export function requestItem(requesterId: string, ownerId: string, createdAt: string) {
  return {
    ...keys.followRequest(requesterId, ownerId),
    ...keys.followRequestIndexes(requesterId, ownerId, createdAt),
    type: 'FOLLOW_REQUEST',
    requesterId,
    ownerId,
    createdAt,
  };
}

const noBlock = (blockerId: string, blockedId: string, error: () => Forbidden | NotFound): TxItem => ({
  op: { ConditionCheck: { TableName: TABLE, Key: keys.block(blockerId, blockedId), ConditionExpression: 'attribute_not_exists(PK)' } },
  onConditionFailed: error,
});

/**
 * The follow limit's condition on the caller's item (contract section 6): follows and pending
 * requests together below FOLLOW_LIMIT. A condition cannot add two attributes, so each is
 * bounded by the limit less the other as read with the caller's item; near the limit the other
 * must also not have grown since (a request and a follow of the same caller racing there can
 * be refused once rather than pass the limit).
 */
export function limitCondition(me: Partial<Pick<UserItem, 'followingCount' | 'requestsOut'>>, moving: 'followingCount' | 'requestsOut') {
  const other = moving === 'followingCount' ? 'requestsOut' : 'followingCount';
  const seen = Number(me[other] ?? 0);
  const near = Number(me.followingCount ?? 0) + Number(me.requestsOut ?? 0) >= FOLLOW_LIMIT - 100;
  return {
    expression: `(attribute_not_exists(${moving}) OR ${moving} < :max)${near ? ` AND (attribute_not_exists(${other}) OR ${other} <= :otherSeen)` : ''}`,
    values: { ':max': FOLLOW_LIMIT - seen, ...(near ? { ':otherSeen': seen } : {}) } as Record<string, number>,
  };
}

export type RequestOutcome = 'requested' | 'already-requested' | 'following' | 'public';

/**
 * Following a private account: a pending request. 'following' when the caller follows it
 * already, 'public' when the account is no longer private (the caller then follows it as usual).
 */
export async function requestFollow(me: UserItem, target: CountedTarget, trace: TraceContext, payload: Record<string, unknown>): Promise<RequestOutcome> {
  const callerId = me.id;
  const targetId = target.id;
  const item = requestItem(callerId, targetId, new Date().toISOString());
  const limit = limitCondition(me, 'requestsOut');
  const items: TxItem[] = [
    noBlock(callerId, targetId, () => new Forbidden('You blocked this user. Unblock them to follow them.')),
    noBlock(targetId, callerId, () => new NotFound('user')),
    notGone(targetId, () => new NotFound('user')),
    // The account is still private (else a request would wait for a going-public job that has run).
    { op: { ConditionCheck: { TableName: TABLE, Key: keys.user(targetId), ConditionExpression: 'isPrivate = :t', ExpressionAttributeValues: { ':t': true } } } },
    { op: { ConditionCheck: { TableName: TABLE, Key: keys.follow(callerId, targetId), ConditionExpression: 'attribute_not_exists(PK)' } } },
    { op: { Put: { TableName: TABLE, Item: item, ConditionExpression: 'attribute_not_exists(PK)' } } },
    {
      op: {
        Update: {
          TableName: TABLE,
          Key: keys.user(callerId),
          UpdateExpression: 'ADD requestsOut :one',
          ConditionExpression: `attribute_exists(PK) AND ${limit.expression}`,
          ExpressionAttributeValues: { ':one': 1, ...limit.values },
        },
      },
      onConditionFailed: () => new FollowLimitReached(FOLLOW_LIMIT),
    },
    logItem(trace, {
      type: 'FOLLOW_REQUESTED',
      description: `User ${callerId} asked to follow the private account ${targetId}.`,
      actorId: callerId,
      payload,
      diff: diffState(null, { requesterId: callerId, ownerId: targetId, createdAt: item.createdAt }),
    }),
  ];
  try {
    await transact(items);
    return 'requested';
  } catch (err) {
    if (!(err instanceof ConditionFailed)) throw err;
    const outcome: RequestOutcome = err.index === 3 ? 'public' : err.index === 4 ? 'following' : 'already-requested';
    if (outcome !== 'public') {
      await recordNoChange(trace, { type: 'FOLLOW_REQUESTED', actorId: callerId, payload },
        outcome === 'following' ? `User ${callerId} already follows user ${targetId}; nothing changed.` : `User ${callerId} already asked to follow user ${targetId}; nothing changed.`);
    }
    return outcome;
  }
}

/** Deletes a pending request (cancel, reject): true when there was one. `actorId` names who did it in the record. */
async function dropRequest(requesterId: string, ownerId: string, actorId: string, type: string, description: string, trace: TraceContext, payload: Record<string, unknown>): Promise<boolean> {
  try {
    await transact([
      { op: { Delete: { TableName: TABLE, Key: keys.followRequest(requesterId, ownerId), ConditionExpression: 'attribute_exists(PK)' } } },
      moveCounters(requesterId, { requestsOut: -1 }),
      logItem(trace, { type, description, actorId, payload, diff: diffState({ requesterId, ownerId }, null) }),
    ]);
    return true;
  } catch (err) {
    if (err instanceof ConditionFailed && err.index === 0) return false;
    throw err;
  }
}

/** The requester withdraws its request (an unfollow of an account it asked to follow). */
export function cancelRequest(requesterId: string, ownerId: string, trace: TraceContext, payload: Record<string, unknown>): Promise<boolean> {
  return dropRequest(requesterId, ownerId, requesterId, 'FOLLOW_REQUEST_CANCELLED', `User ${requesterId} withdrew the request to follow user ${ownerId}.`, trace, payload);
}

/** The owner refuses a request; 404 when none is pending. It tells the requester nothing. */
export async function rejectRequest(ownerId: string, requesterId: string, trace: TraceContext, payload: Record<string, unknown>): Promise<void> {
  const done = await dropRequest(requesterId, ownerId, ownerId, 'FOLLOW_REQUEST_REJECTED', `User ${ownerId} rejected the follow request of user ${requesterId}.`, trace, payload);
  if (!done) throw new NotFound('follow request');
}

const ownerFollowers = (owner: CountedTarget): Counter => ({
  key: keys.user(owner.id), field: 'followersCount', seen: owner.followersCount, delta: 1, onMissing: () => new NotFound('user'),
  stamp: { field: 'followersCountAt', seen: owner.followersCountAt },
  bump: 'edgesV',
});

/**
 * The request becomes a follow (counts move, the feed's backfill and the requester's
 * notification follow from the edge on the stream). 404 when none is pending. The owner's
 * followersCount after the change is the answer. `actorId`: the owner, or the owner's
 * going-public job.
 */
export async function approveRequest(owner: CountedTarget, requesterId: string, trace: TraceContext, payload: Record<string, unknown>): Promise<number> {
  const edge = { ...followEdge(requesterId, owner.id, new Date().toISOString()), approved: true };
  const del: TxItem = { op: { Delete: { TableName: TABLE, Key: keys.followRequest(requesterId, owner.id), ConditionExpression: 'attribute_exists(PK)' } } };
  const log = logItem(trace, {
    type: 'FOLLOW_REQUEST_APPROVED',
    description: `User ${owner.id} approved the follow request of user ${requesterId}.`,
    actorId: owner.id,
    payload,
    diff: diffState(null, { followerId: requesterId, followeeId: owner.id, createdAt: edge.createdAt }),
  });
  try {
    const { changed, count } = await countedChange((step) => [
      del,
      notGone(requesterId, () => new NotFound('follow request')),
      { op: { Put: { TableName: TABLE, Item: edge, ConditionExpression: 'attribute_not_exists(PK)' } } },
      moveCounters(requesterId, { followingCount: 1, requestsOut: -1 }),
      step,
      log,
    ], del, ownerFollowers(owner));
    if (!changed) throw new NotFound('follow request');
    return count;
  } catch (err) {
    // The requester follows already (it followed while the account was public): the request just goes.
    if (!(err instanceof ConditionFailed) || err.index !== 2) throw err;
    await dropRequest(requesterId, owner.id, owner.id, 'FOLLOW_REQUEST_APPROVED', `User ${requesterId} already follows user ${owner.id}; the request was removed.`, trace, payload);
    return owner.followersCount;
  }
}

/** A page of requests to an owner, oldest first, after a sort key (the going-public job). */
export async function oldestRequests(ownerId: string, after: string | undefined, limit: number): Promise<{ sortKeys: string[]; end: boolean }> {
  const res = await db.send(new QueryCommand({
    TableName: TABLE,
    IndexName: INDEX.GSI1,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.requestsTo(ownerId) },
    ProjectionExpression: 'GSI1SK, requesterId',
    ScanIndexForward: true,
    Limit: limit,
    ExclusiveStartKey: after ? { GSI1PK: keys.requestsTo(ownerId), GSI1SK: after, ...keys.followRequest(after.slice(after.lastIndexOf('#') + 1), ownerId) } : undefined,
  }));
  return { sortKeys: (res.Items ?? []).map((i) => String(i.GSI1SK)), end: res.LastEvaluatedKey === undefined };
}
