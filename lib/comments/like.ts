// Likes of a comment: a conditional like edge and the comment's likesCount in one
// transaction with the trace record. Liking twice or unliking what is not liked is an
// idempotent no-op: 200, nothing changed, and a record of its own.
import { TABLE } from '../db/client';
import type { Counter, TxItem } from '../db/transact';
import * as keys from '../keys';
import { NotFound } from '../errors';
import { recordCountedChange } from '../audit/records';
import { diffState } from '../audit/diff';
import type { TraceContext } from '../audit/context';
import type { Standpoint } from './access';
import type { CommentItem } from './model';

interface Audit {
  trace: TraceContext;
  payload: Record<string, unknown>;
}

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

/**
 * The comment's likesCount as the change moves it: conditioned on the count read with the
 * comment, so the answer is that count plus or minus one, with no read after the write
 * (lib/db/transact.ts countedChange).
 */
const likesCounter = (comment: CommentItem, delta: 1 | -1): Counter => ({
  key: keys.comment(comment.id), field: 'likesCount', seen: comment.likesCount ?? 0, delta, onMissing: gone,
  stamp: { field: 'likesCountAt', seen: comment.likesCountAt },
  // The recent likers item beside the comment is stale until the stream catches up (lib/posts/recent-likers.ts).
  bump: 'likesV',
});

/** likesCount right after the change (or as the change found it, for a repeat). */
export async function setLike({ comment }: Standpoint, userId: string, liked: boolean, audit: Audit): Promise<number> {
  const entry = {
    type: liked ? 'COMMENT_LIKED' : 'COMMENT_UNLIKED',
    description: `User ${userId} ${liked ? 'liked' : 'unliked'} comment ${comment.id}.`,
    actorId: userId,
    payload: audit.payload,
  };
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
    : { op: { Delete: { TableName: TABLE, Key: keys.commentLike(comment.id, userId), ConditionExpression: 'attribute_exists(PK)' } } };
  // What a like hangs on must still exist when it is written. Checks come first: a comment gone
  // since it was read is a 404 even when the edge also fails (the count's step: countedChange).
  const guards: TxItem[] = liked
    ? [exists(keys.post(comment.post)), ...(comment.parentComment ? [exists(keys.comment(comment.parentComment))] : [])]
    : [];
  const { count } = await recordCountedChange(
    audit.trace, (step) => [...guards, step, edgeItem], edgeItem, likesCounter(comment, liked ? 1 : -1),
    { ...entry, diff: diffState({ isLiked: !liked }, { isLiked: liked }) }, `${entry.description} (no change)`,
  );
  return count;
}
