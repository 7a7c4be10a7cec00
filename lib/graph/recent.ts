// The newest follower and following ids of each user, kept on the user item by the stream
// (docs/ARCHITECTURE.md, "Recent ids on the user item"). Every change of a user's follow
// edges moves the item's edgesV in its own transaction; this reaction sees the edge come or
// go, reads the two edge indexes (RECENT_IDS ids each) and writes them with
// recentV = the edgesV they reflect. Readers use the arrays only while recentV = edgesV
// (lib/users/model.ts recentEdges), so a list never shows ids older than its counters:
// while the stream is behind, they read the edges as before.
//
// Idempotent and order-free: each run recomputes from the edges, and a write only moves
// recentV forward, so a replayed or late change cannot put older arrays back.
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { db, TABLE } from '../db/client';
import * as keys from '../keys';
import { edgeIds } from '../users/repo';
import { RECENT_IDS } from '../users/model';
import { typeOf, type Change, type Reaction } from '../events/changes';

const versionOf = (item: Record<string, unknown> | undefined) => Number(item?.edgesV ?? 0);

/** The edge indexes lag the table (a GSI is eventually consistent): a count they do not show yet is retried, not written. */
export class IndexBehind extends Error {}

/**
 * Brings a user's recent arrays up to its edgesV: a consistent read of the item (its edgesV
 * and counts), the two index Queries, and a write that only moves recentV forward. Nothing
 * when they are current already (a replay, or another change's run got there first), or
 * when the account is gone or being deleted.
 */
export async function refreshRecent(userId: string): Promise<boolean> {
  const res = await db.send(new GetCommand({
    TableName: TABLE,
    Key: keys.user(userId),
    ProjectionExpression: 'edgesV, recentV, followersCount, followingCount, deletedAt',
    ConsistentRead: true,
  }));
  const user = res.Item;
  if (!user || user.deletedAt !== undefined) return false;
  const version = versionOf(user);
  if (user.recentV !== undefined && Number(user.recentV) >= version) return false;
  // One id more than the arrays keep: with as many edges as they hold or fewer (exactly when
  // readers take an array for the whole list: lib/graph/relations.ts followPlan), the index
  // must show exactly the counted ones, and an edge it still shows after its removal is seen.
  const [followersRead, followingRead] = await Promise.all([
    edgeIds('GSI2', keys.followersOf(userId), RECENT_IDS.followers + 1),
    edgeIds('GSI1', keys.followingOf(userId), RECENT_IDS.following + 1),
  ]);
  // When it does not, either the index lags (the change is retried) or the item moved on since
  // the read (that change runs this again): a second consistent read tells which.
  const short = (ids: string[], count: unknown, limit: number) => ids.length !== Math.min(Number(count ?? 0), limit + 1);
  if (short(followersRead, user.followersCount, RECENT_IDS.followers) || short(followingRead, user.followingCount, RECENT_IDS.following)) {
    const now = await db.send(new GetCommand({ TableName: TABLE, Key: keys.user(userId), ProjectionExpression: 'edgesV', ConsistentRead: true }));
    if (!now.Item || versionOf(now.Item) > version) return false;
    throw new IndexBehind(`The follow indexes of ${userId} do not show its counts yet (edgesV ${version})`);
  }
  try {
    await db.send(new UpdateCommand({
      TableName: TABLE,
      Key: keys.user(userId),
      UpdateExpression: 'SET recentFollowers = :f, recentFollowing = :g, recentV = :v',
      // Never on a deleted account, and never backwards.
      ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deletedAt) AND (attribute_not_exists(recentV) OR recentV < :v)',
      ExpressionAttributeValues: { ':f': followersRead.slice(0, RECENT_IDS.followers), ':g': followingRead.slice(0, RECENT_IDS.following), ':v': version },
    }));
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

/** A follow edge came or went: both of its users' arrays (the stream delivers FOLLOW INSERT and REMOVE already, for the feed). */
export const recentReactions: Reaction[] = [
  {
    name: 'recent-follow-ids',
    matches: (c: Change) => typeOf(c) === 'FOLLOW' && (c.event === 'INSERT' || c.event === 'REMOVE'),
    run: async (c) => {
      const edge = (c.newImage ?? c.oldImage)!;
      await Promise.all([refreshRecent(String(edge.followerId)), refreshRecent(String(edge.followeeId))]);
    },
  },
];
