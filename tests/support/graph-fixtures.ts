// Graph and comment items put directly, exactly as docs/ARCHITECTURE.md defines them, for
// the posts tests while the follow/block and comment endpoints are built in parallel.
// The lead swaps follow() and block() to the real endpoints after merging.
import { TransactWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../../lib/db/client';
import * as keys from '../../lib/keys';
import { newId } from '../../lib/ids';
import { getItem } from './db';
import { blockEdge, blockMirror } from '../../lib/graph/edges';

type Tx = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];
const add = (key: { PK: string; SK: string }, attr: string, by: number): Tx => ({
  Update: { TableName: TABLE, Key: key, UpdateExpression: 'ADD #a :by', ExpressionAttributeNames: { '#a': attr }, ExpressionAttributeValues: { ':by': by } },
});
/** A follow counter moves edgesV with it, as the service's own writes do (lib/users/model.ts recentEdges). */
const addFollow = (key: { PK: string; SK: string }, attr: string, by: number): Tx => ({
  Update: { TableName: TABLE, Key: key, UpdateExpression: 'ADD #a :by, edgesV :one', ExpressionAttributeNames: { '#a': attr }, ExpressionAttributeValues: { ':by': by, ':one': 1 } },
});

/** a follows b (no-op when already following). */
export async function follow(a: string, b: string): Promise<void> {
  if (await getItem(keys.follow(a, b))) return;
  const createdAt = new Date().toISOString();
  await db.send(new TransactWriteCommand({
    TransactItems: [
      { Put: { TableName: TABLE, Item: { ...keys.follow(a, b), ...keys.followIndexes(a, b, createdAt), type: 'FOLLOW', followerId: a, followeeId: b, createdAt } } },
      addFollow(keys.user(a), 'followingCount', 1),
      addFollow(keys.user(b), 'followersCount', 1),
    ],
  }));
}

async function unfollow(a: string, b: string): Promise<Tx[]> {
  if (!(await getItem(keys.follow(a, b)))) return [];
  return [
    { Delete: { TableName: TABLE, Key: keys.follow(a, b) } },
    addFollow(keys.user(a), 'followingCount', -1),
    addFollow(keys.user(b), 'followersCount', -1),
  ];
}

/** a blocks b: follows between them go, in both directions. */
export async function block(a: string, b: string): Promise<void> {
  const createdAt = new Date().toISOString();
  await db.send(new TransactWriteCommand({
    TransactItems: [
      { Put: { TableName: TABLE, Item: blockEdge(a, b, createdAt) } },
      { Put: { TableName: TABLE, Item: blockMirror(a, b, createdAt) } },
      add(keys.user(a), 'blockedCount', 1),
      ...(await unfollow(a, b)),
      ...(await unfollow(b, a)),
    ],
  }));
}

export interface FixtureComment {
  id: string;
  createdAt: string;
}

/** A top-level comment on a post, or a reply when `parent` is given. Counters are not moved. */
export async function comment(postId: string, authorId: string, parent?: string): Promise<FixtureComment> {
  const id = newId();
  const createdAt = new Date().toISOString();
  const item = {
    ...keys.comment(id),
    GSI1PK: parent ? keys.repliesOf(parent) : keys.commentsOf(postId),
    GSI1SK: createdAt,
    type: 'COMMENT', id, text: 'fixture', author: authorId, post: postId,
    parentComment: parent ?? null, replyTo: parent ?? null, repliesCount: 0, likesCount: 0, createdAt, updatedAt: createdAt,
  };
  await db.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: TABLE, Item: item } }] }));
  return { id, createdAt };
}

/** userId likes a comment. */
export async function likeComment(commentId: string, userId: string): Promise<void> {
  const createdAt = new Date().toISOString();
  await db.send(new TransactWriteCommand({
    TransactItems: [{ Put: { TableName: TABLE, Item: { ...keys.commentLike(commentId, userId), ...keys.likeIndexes(commentId, userId, createdAt), type: 'LIKE', userId, createdAt } } }],
  }));
}

/** Items of an index partition (for checks that children are gone). */
export async function indexItems(index: 'GSI1' | 'GSI2', pk: string): Promise<Record<string, unknown>[]> {
  const res = await db.send(new QueryCommand({
    TableName: TABLE, IndexName: index, KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': `${index}PK` }, ExpressionAttributeValues: { ':pk': pk },
  }));
  return res.Items ?? [];
}
