// Deleting a comment: one transaction removes it, moves the counters, writes the cleanup
// job of what it leaves behind (likes; a top-level comment's replies) and the trace
// record. Replies of a deleted comment vanish from every read at once because every read
// of a reply checks its parent. Counters stay exact against racing replies and reply
// deletions: a top-level comment is deleted only while its repliesCount is the one we
// subtracted, and a reply only while its parent still exists.
import { TABLE } from '../db/client';
import { ConditionFailed, transact, type TxItem } from '../db/transact';
import * as keys from '../keys';
import { NotFound } from '../errors';
import { logItem } from '../audit/records';
import { diffState } from '../audit/diff';
import { cleanupJobItem } from '../cleanup/jobs';
import { triggerCleanup } from '../cleanup/trigger';
import type { TraceContext } from '../audit/context';
import { auditable, type CommentItem } from './model';
import { rawNumber } from './raw';

interface Audit {
  trace: TraceContext;
  payload: Record<string, unknown>;
  actorId: string;
}

const MAX_ATTEMPTS = 30;
const gone = () => new NotFound('comment');

const decrement = (key: { PK: string; SK: string }, field: string, by: number): TxItem => ({
  op: {
    Update: {
      TableName: TABLE,
      Key: key,
      UpdateExpression: 'ADD #f :by',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#f': field },
      ExpressionAttributeValues: { ':by': -by },
    },
  },
  onConditionFailed: gone,
});

function record(comment: CommentItem, audit: Audit, removedReplies: number): TxItem {
  const reply = !!comment.parentComment;
  return logItem(audit.trace, {
    type: reply ? 'REPLY_DELETED' : 'COMMENT_DELETED',
    description: reply
      ? `Reply ${comment.id} was deleted.`
      : `Comment ${comment.id} was deleted with its ${removedReplies} repl${removedReplies === 1 ? 'y' : 'ies'}.`,
    actorId: audit.actorId,
    payload: audit.payload,
    diff: diffState(auditable(comment), null),
  });
}

async function deleteTopLevel(comment: CommentItem, audit: Audit, also: TxItem[]): Promise<void> {
  let replies = comment.repliesCount ?? 0;
  for (let n = 1; ; n++) {
    try {
      await transact([
        ...also,
        {
          op: {
            Delete: {
              TableName: TABLE,
              Key: keys.comment(comment.id),
              ConditionExpression: 'attribute_exists(PK) AND repliesCount = :n',
              ExpressionAttributeValues: { ':n': replies },
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          },
        },
        decrement(keys.post(comment.post), 'commentsCount', 1 + replies),
        cleanupJobItem('comment', comment.id),
        record(comment, audit, replies),
      ]);
      return;
    } catch (err) {
      if (!(err instanceof ConditionFailed) || err.index !== also.length) throw err;
      // Gone: someone else deleted it. Otherwise a reply came or went: subtract the new count.
      const now = rawNumber(err.item, 'repliesCount');
      if (!err.item || now === undefined) throw gone();
      if (n >= MAX_ATTEMPTS) throw err;
      replies = now;
    }
  }
}

async function deleteReply(reply: CommentItem, audit: Audit, also: TxItem[]): Promise<void> {
  await transact([
    ...also,
    {
      op: { Delete: { TableName: TABLE, Key: keys.comment(reply.id), ConditionExpression: 'attribute_exists(PK)' } },
      onConditionFailed: gone,
    },
    decrement(keys.comment(reply.parentComment!), 'repliesCount', 1),
    decrement(keys.post(reply.post), 'commentsCount', 1),
    cleanupJobItem('comment', reply.id),
    record(reply, audit, 0),
  ]);
}

/**
 * `also`: items written in the deletion's transaction or not at all, first in it, so that when
 * one of theirs and the deletion's both fail, theirs is the answer (a moderator's resolution of
 * the report that named the comment).
 */
export async function deleteComment(comment: CommentItem, audit: Audit, also: TxItem[] = []): Promise<void> {
  await (comment.parentComment ? deleteReply(comment, audit, also) : deleteTopLevel(comment, audit, also));
  // The job written above is drained by the worker: likes, and for a top-level comment its replies.
  await triggerCleanup('comment', comment.id);
}
