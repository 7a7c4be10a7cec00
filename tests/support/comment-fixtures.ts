// Posts and blocks put straight into the table, in the shapes of lib/posts/model.ts and
// lib/keys.ts, while the posts and graph endpoints are built in parallel. The lead swaps
// these for the real endpoints after merging.
import { TransactWriteCommand, PutCommand, DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../../lib/db/client';
import { keys } from '../../lib/keys';
import { newId } from '../../lib/ids';
import type { PostItem } from '../../lib/posts/model';

export async function makePost(authorId: string): Promise<PostItem> {
  const id = newId();
  const now = new Date().toISOString();
  const post: PostItem = {
    ...keys.post(id),
    ...keys.postIndexes(id, authorId),
    type: 'POST',
    id,
    author: authorId,
    image: JSON.stringify(['https://img.example.test/a.jpg']),
    image_public_id: '',
    caption: 'fixture',
    createdAt: now,
    updatedAt: now,
    likesCount: 0,
    commentsCount: 0,
  };
  await db.send(new TransactWriteCommand({
    TransactItems: [
      { Put: { TableName: TABLE, Item: post, ConditionExpression: 'attribute_not_exists(PK)' } },
      { Update: { TableName: TABLE, Key: keys.user(authorId), UpdateExpression: 'ADD postsCount :one', ExpressionAttributeValues: { ':one': 1 } } },
    ],
  }));
  return post;
}

/** Deletes the post item only, as the posts endpoint does before its cleanup runs. */
export async function dropPost(postId: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: TABLE, Key: keys.post(postId) }));
}

/** a blocks b. */
export async function block(blockerId: string, blockedId: string): Promise<void> {
  const createdAt = new Date().toISOString();
  await db.send(new PutCommand({
    TableName: TABLE,
    Item: { ...keys.block(blockerId, blockedId), ...keys.blockIndexes(blockerId, blockedId, createdAt), type: 'BLOCK', blockerId, blockedId, createdAt },
  }));
}
