// Writing comments and replies. Each is one transaction: the comment, the thread head's
// counter and last timestamp, the post's commentsCount, the trace record and (through
// `seal`) the idempotency record of the answer. The head's condition keeps createdAt
// unique within the thread (timestamps.ts); a writer that loses the race takes the
// head's new timestamp from the cancellation and tries again.
import { TABLE } from '../db/client';
import { ConditionFailed, transact, type TxItem } from '../db/transact';
import * as keys from '../keys';
import { newId } from '../ids';
import { NotFound, ValidationError } from '../errors';
import { logItem } from '../audit/records';
import { diffState } from '../audit/diff';
import type { TraceContext } from '../audit/context';
import type { PostItem } from '../posts/model';
import { auditable, type CommentItem } from './model';
import { nextInThread } from './timestamps';
import { rawString } from './raw';

/** Extra transaction items made from the new comment (the idempotency record of its answer). */
export type Seal = (comment: CommentItem) => TxItem[];

interface Audit {
  trace: TraceContext;
  payload: Record<string, unknown>;
}

// A thread head takes one write per attempt; with n writers racing, each attempt lets at
// least one through, so this bounds how many racing writers one request outlasts.
const MAX_ATTEMPTS = 60;
const HEAD = 1; // index of the thread head's update in the transaction

export type CommentFields = Omit<CommentItem, 'PK' | 'SK' | 'type' | 'id' | 'repliesCount' | 'likesCount' | 'updatedAt' | 'GSI1SK'>;

// The ids the text mentions (the stream's MENTION notifications read them from the item); absent when none.
const mentionsField = (mentions: string[] | undefined) => (mentions?.length ? { mentions } : {});

const newComment = (fields: CommentFields): CommentItem => commentItem(newId(), fields);

/** A comment or reply item of a given id, counters at zero. */
export function commentItem(id: string, fields: CommentFields): CommentItem {
  return {
    ...keys.comment(id),
    type: 'COMMENT',
    id,
    ...fields,
    repliesCount: 0,
    likesCount: 0,
    updatedAt: fields.createdAt,
    GSI1SK: fields.createdAt,
    GSI2PK: keys.commentsBy(fields.author),
    GSI2SK: id,
  };
}

const putNew = (item: CommentItem): TxItem => ({
  op: { Put: { TableName: TABLE, Item: item, ConditionExpression: 'attribute_not_exists(PK)' } },
});

/**
 * The thread head's update: one more child, and the new child's createdAt as the head's
 * last, only if the last one stored is older (what keeps createdAt unique in the thread).
 */
function headUpdate(key: { PK: string; SK: string }, counter: string, lastField: string, createdAt: string): TxItem {
  return {
    op: {
      Update: {
        TableName: TABLE,
        Key: key,
        UpdateExpression: 'ADD #counter :one SET #last = :at',
        ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(#last) OR #last < :at)',
        ExpressionAttributeNames: { '#counter': counter, '#last': lastField },
        ExpressionAttributeValues: { ':one': 1, ':at': createdAt },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
  };
}

const creationRecord = (audit: Audit, type: string, description: string, item: CommentItem): TxItem =>
  logItem(audit.trace, { type, description, actorId: item.author, payload: audit.payload, diff: diffState(null, auditable(item)) });

/** Runs attempts until the head's condition holds; `last` is the head's timestamp seen so far. */
async function writeInThread(
  last: string | undefined,
  attempt: (createdAt: string) => { item: CommentItem; items: TxItem[] },
  lastField: string,
  gone: () => Error,
): Promise<CommentItem> {
  for (let n = 1; ; n++) {
    const { item, items } = attempt(nextInThread(last));
    try {
      await transact(items);
      return item;
    } catch (err) {
      if (!(err instanceof ConditionFailed) || err.index !== HEAD) throw err;
      if (!err.item) throw gone();
      if (n >= MAX_ATTEMPTS) throw err;
      last = rawString(err.item, lastField) ?? last;
    }
  }
}

export async function createComment(
  input: { post: PostItem; author: string; text: string; mentions?: string[] },
  audit: Audit,
  seal: Seal,
): Promise<CommentItem> {
  const { post } = input;
  return writeInThread(post.lastCommentAt, (createdAt) => {
    const item = newComment({
      text: input.text,
      author: input.author,
      post: post.id,
      parentComment: null,
      replyTo: null,
      ...mentionsField(input.mentions),
      createdAt,
      postAuthor: post.author,
      GSI1PK: keys.commentsOf(post.id),
    });
    return {
      item,
      items: [
        putNew(item),
        headUpdate(keys.post(post.id), 'commentsCount', 'lastCommentAt', createdAt),
        creationRecord(audit, 'COMMENT_CREATED', `User ${input.author} commented on post ${post.id}.`, item),
        ...seal(item),
      ],
    };
  }, 'lastCommentAt', () => new NotFound('post'));
}

export async function createReply(
  input: { parent: CommentItem; replyTo: string; replyToAuthor?: string; author: string; text: string; mentions?: string[] },
  audit: Audit,
  seal: Seal,
): Promise<CommentItem> {
  const { parent, replyTo } = input;
  return writeInThread(parent.lastReplyAt, (createdAt) => {
    const item = newComment({
      text: input.text,
      author: input.author,
      post: parent.post,
      parentComment: parent.id,
      replyTo,
      ...mentionsField(input.mentions),
      createdAt,
      postAuthor: parent.postAuthor,
      parentAuthor: parent.author,
      ...(input.replyToAuthor && replyTo !== parent.id ? { replyToAuthor: input.replyToAuthor } : {}),
      GSI1PK: keys.repliesOf(parent.id),
    });
    const answered: TxItem[] = replyTo === parent.id ? [] : [{
      // The reply answered must still exist when this one is written.
      op: { ConditionCheck: { TableName: TABLE, Key: keys.comment(replyTo), ConditionExpression: 'attribute_exists(PK)' } },
      onConditionFailed: () => ValidationError.field('replyTo', 'must be the id of a reply in this thread'),
    }];
    return {
      item,
      items: [
        putNew(item),
        headUpdate(keys.comment(parent.id), 'repliesCount', 'lastReplyAt', createdAt),
        {
          op: {
            Update: {
              TableName: TABLE,
              Key: keys.post(parent.post),
              UpdateExpression: 'ADD commentsCount :one',
              ConditionExpression: 'attribute_exists(PK)',
              ExpressionAttributeValues: { ':one': 1 },
            },
          },
          onConditionFailed: () => new NotFound('comment'),
        },
        ...answered,
        creationRecord(audit, 'REPLY_CREATED', `User ${input.author} replied to comment ${parent.id}.`, item),
        ...seal(item),
      ],
    };
  }, 'lastReplyAt', () => new NotFound('comment'));
}
