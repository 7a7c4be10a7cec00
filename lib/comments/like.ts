// Likes of a comment: a conditional like edge and the comment's likesCount in one
// transaction with the trace record. Liking twice or unliking what is not liked is an
// idempotent no-op: 200, nothing changed, and a record of its own.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import type { TxItem } from '../db/transact';
import * as keys from '../keys';
import { NotFound } from '../errors';
import { recordChange } from '../audit/records';
import { diffState } from '../audit/diff';
import type { TraceContext } from '../audit/context';
import type { Thread } from './access';

interface Audit {
  trace: TraceContext;
  payload: Record<string, unknown>;
}

/** The like edge of a comment. */
/** A comment's like edge; it names the comment's author and post, for its notification (lib/notifications). */
export const commentLikeItem = (commentId: string, userId: string, createdAt: string, commentAuthor: string, postId: string) => ({
  ...keys.commentLike(commentId, userId),
  ...keys.likeIndexes(commentId, userId, createdAt),
  type: 'LIKE', targetId: commentId, userId, createdAt, commentAuthor, postId,
});

const gone = () => new NotFound('comment');
const exists = (key: { PK: string; SK: string }): TxItem => ({
  op: { ConditionCheck: { TableName: TABLE, Key: key, ConditionExpression: 'attribute_exists(PK)' } },
  onConditionFailed: gone,
});
const moveLikes = (commentId: string, by: 1 | -1): TxItem => ({
  op: {
    Update: {
      TableName: TABLE,
      Key: keys.comment(commentId),
      // likesV: the recent likers item beside the comment is stale until the stream catches up (lib/posts/recent-likers.ts).
      UpdateExpression: 'ADD likesCount :by, likesV :one',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':by': by, ':one': 1 },
    },
  },
  onConditionFailed: gone,
});

/** likesCount after the change (others' concurrent likes included). */
async function likesCount(commentId: string): Promise<number> {
  const res = await db.send(new GetCommand({
    TableName: TABLE, Key: keys.comment(commentId), ConsistentRead: true, ProjectionExpression: 'likesCount',
  }));
  return Number(res.Item?.likesCount ?? 0);
}

export async function setLike(thread: Thread, userId: string, liked: boolean, audit: Audit): Promise<number> {
  const { comment } = thread;
  const entry = {
    type: liked ? 'COMMENT_LIKED' : 'COMMENT_UNLIKED',
    description: `User ${userId} ${liked ? 'liked' : 'unliked'} comment ${comment.id}.`,
    actorId: userId,
    payload: audit.payload,
  };
  const edge = keys.commentLike(comment.id, userId);
  const createdAt = new Date().toISOString();
  const edgeItem: TxItem = liked
    ? {
      op: {
        Put: {
          TableName: TABLE,
          Item: commentLikeItem(comment.id, userId, createdAt, comment.author, comment.post),
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
    }
    : { op: { Delete: { TableName: TABLE, Key: edge, ConditionExpression: 'attribute_exists(PK)' } } };
  // Checks come first: a comment gone since it was read is a 404 even when the edge also fails.
  const guards: TxItem[] = liked
    ? [
      moveLikes(comment.id, 1),
      // What the like hangs on must still exist when it is written.
      exists(keys.post(comment.post)),
      ...(comment.parentComment ? [exists(keys.comment(comment.parentComment))] : []),
    ]
    : [moveLikes(comment.id, -1)];
  await recordChange(audit.trace, [...guards, edgeItem], edgeItem, { ...entry, diff: diffState({ isLiked: !liked }, { isLiked: liked }) }, `${entry.description} (no change)`);
  return likesCount(comment.id);
}
