// The user a graph mutation is aimed at: an id or a username in any case. Following or
// blocking yourself is a 400 SELF_ACTION (contract section 2); undoing either is not: you
// never follow or block yourself, so unfollowing or unblocking yourself is the contract's
// "unfollowing someone you do not follow", a 200 no-op.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import * as keys from '../keys';
import { resolveUserId } from '../users/repo';
import { NotFound, SelfAction } from '../errors';

export async function targetOf(identifier: string, callerId: string, selfMessage?: string): Promise<string> {
  const id = await resolveUserId(identifier);
  if (!id) throw new NotFound('user');
  if (id === callerId && selfMessage) throw new SelfAction(selfMessage);
  return id;
}

export interface CountedTarget {
  id: string;
  /** The target's followersCount as read: the condition of the follow's counter (lib/db/transact.ts countedChange). */
  followersCount: number;
  /** When the count last moved (epoch ms): a hot target's follow skips the optimistic attempt. */
  followersCountAt?: number;
  /** A private account (contract section 18): a follow becomes a request. */
  isPrivate?: boolean;
}

/**
 * targetOf, and the target's followersCount read with it: by id in the caller's own round
 * trip; by username right after the username's claim. The follow's transaction is
 * conditioned on this count, so its answer needs no read after the write.
 */
export async function countedTarget(identifier: string, callerId: string, selfMessage?: string): Promise<CountedTarget> {
  const id = await targetOf(identifier, callerId, selfMessage);
  const res = await db.send(new GetCommand({
    TableName: TABLE, Key: keys.user(id), ProjectionExpression: 'PK, followersCount, followersCountAt, isPrivate', ConsistentRead: true,
  }));
  if (!res.Item) throw new NotFound('user');
  const at = res.Item.followersCountAt as number | undefined;
  return {
    id, followersCount: Number(res.Item.followersCount ?? 0), ...(at === undefined ? {} : { followersCountAt: Number(at) }),
    ...(res.Item.isPrivate === true ? { isPrivate: true } : {}),
  };
}
