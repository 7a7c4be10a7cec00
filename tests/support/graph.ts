// Helpers of the social graph tests: the endpoints by name, and exact reads of counters
// and edge items straight from the table (to check that counters equal edges).
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../../lib/db/client';
import * as keys from '../../lib/keys';
import { INDEX } from '../../lib/keys';
import { call } from './invoke';
import { getItem } from './db';
import { transact } from '../../lib/db/transact';
import { blockEdge, blockMirror, moveCounters } from '../../lib/graph/edges';
import { makeUsers, type TestUser } from './factories';
import { handler as followH } from '../../functions/users/follow';
import { handler as unfollowH } from '../../functions/users/unfollow';
import { handler as blockH } from '../../functions/users/block';
import { handler as unblockH } from '../../functions/users/unblock';
import { handler as followersH } from '../../functions/users/followers';
import { handler as followingH } from '../../functions/users/following';
import { handler as blockedH } from '../../functions/users/blocked';

type Who = TestUser | { token: string };
const target = (t: TestUser | string) => (typeof t === 'string' ? t : t.id);

export const follow = (by: Who, t: TestUser | string, headers?: Record<string, string>) =>
  call(followH, 'POST /users/follow/{identifier}', { params: { identifier: target(t) }, token: by.token, headers });
export const unfollow = (by: Who, t: TestUser | string, headers?: Record<string, string>) =>
  call(unfollowH, 'POST /users/unfollow/{identifier}', { params: { identifier: target(t) }, token: by.token, headers });
export const block = (by: Who, t: TestUser | string, headers?: Record<string, string>) =>
  call(blockH, 'POST /users/block/{identifier}', { params: { identifier: target(t) }, token: by.token, headers });
export const unblock = (by: Who, t: TestUser | string, headers?: Record<string, string>) =>
  call(unblockH, 'POST /users/unblock/{identifier}', { params: { identifier: target(t) }, token: by.token, headers });
export const followers = (by: Who, t: TestUser | string, query?: Record<string, string>) =>
  call(followersH, 'GET /users/{identifier}/followers', { params: { identifier: target(t) }, token: by.token, query });
export const following = (by: Who, t: TestUser | string, query?: Record<string, string>) =>
  call(followingH, 'GET /users/{identifier}/following', { params: { identifier: target(t) }, token: by.token, query });
export const blocked = (by: Who, query?: Record<string, string>) =>
  call(blockedH, 'GET /users/blocked', { token: by.token, query });

/**
 * A block written straight to the table, as blocks stood before a blocked user's block back
 * became a 404 (or as two racing blocks could once both commit): the edge, its mirror and the
 * blocker's counter, in one transaction.
 */
export async function blockDirectly(by: TestUser, t: TestUser): Promise<void> {
  const createdAt = new Date().toISOString();
  await transact([
    { op: { Put: { TableName: TABLE, Item: blockEdge(by.id, t.id, createdAt) } } },
    { op: { Put: { TableName: TABLE, Item: blockMirror(by.id, t.id, createdAt) } } },
    moveCounters(by.id, { blockedCount: 1 }),
  ]);
}

export async function counters(u: TestUser | string) {
  const item = await getItem(keys.user(target(u)));
  return {
    followersCount: Number(item?.followersCount),
    followingCount: Number(item?.followingCount),
    blockedCount: Number(item?.blockedCount ?? 0),
  };
}

async function countIndex(index: 'GSI1' | 'GSI2', partition: string): Promise<number> {
  let n = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db.send(new QueryCommand({
      TableName: TABLE, IndexName: INDEX[index], KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': `${index}PK` }, ExpressionAttributeValues: { ':pk': partition },
      Select: 'COUNT', ExclusiveStartKey: start,
    }));
    n += res.Count ?? 0;
    start = res.LastEvaluatedKey;
  } while (start);
  return n;
}

/** The edge items of a user, counted from the indexes. */
export async function edgeCounts(u: TestUser | string) {
  const id = target(u);
  const [followersCount, followingCount, blockedCount] = await Promise.all([
    countIndex('GSI2', keys.followersOf(id)),
    countIndex('GSI1', keys.followingOf(id)),
    countIndex('GSI1', keys.blocksOf(id)),
  ]);
  return { followersCount, followingCount, blockedCount };
}

export const follows = async (a: TestUser, b: TestUser) => (await getItem(keys.follow(a.id, b.id))) !== undefined;
export const blocks = async (a: TestUser, b: TestUser) => (await getItem(keys.block(a.id, b.id))) !== undefined;

/** Fresh users, typed so that destructuring the first few needs no checks (the count is the caller's promise). */
type Many = [TestUser, TestUser, TestUser, TestUser, TestUser, TestUser, TestUser, TestUser, TestUser, ...TestUser[]];
export const users = async (n: number): Promise<Many> => (await makeUsers(n)) as Many;
