// The stored comment (top-level or reply) and the Comment object of the API. A comment
// carries the authors of the records above it (post, parent) so that the block checks of
// a read can run beside the reads of those records instead of after them.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import * as keys from '../keys';
import { isId } from '../ids';

export interface CommentItem {
  PK: string;
  SK: string;
  type: 'COMMENT';
  id: string;
  text: string;
  author: string;
  post: string;
  parentComment: string | null;
  replyTo: string | null;
  /** Ids of the accounts the text mentions (contract section 19); absent = none. */
  mentions?: string[];
  repliesCount: number;
  likesCount: number;
  /** Moved by every like and unlike: the recent likers item beside the comment is current while its v equals this (lib/posts/recent-likers.ts). */
  likesV?: number;
  /** When likesCount last moved (epoch ms): a comment liked within the last second is hot (lib/db/transact.ts countedChange). */
  likesCountAt?: number;
  createdAt: string;
  updatedAt: string;
  /** Author of the post: block checks without waiting for the post. */
  postAuthor: string;
  /** Author of the parent comment (replies only). */
  parentAuthor?: string;
  /** Author of the reply this one answers through replyTo, when that is not the parent (its notification). */
  replyToAuthor?: string;
  /** createdAt of the newest reply (top-level comments): keeps reply timestamps unique per thread. */
  lastReplyAt?: string;
  GSI1PK: string;
  GSI1SK: string;
  /** The author's comments (keys.commentsBy), for the deletion of the account. */
  GSI2PK?: string;
  GSI2SK?: string;
}

export interface Comment {
  _id: string;
  text: string;
  author: string;
  post: string;
  parentComment: string | null;
  replyTo: string | null;
  /** Ids of the accounts the text mentions (neither deleted nor suspended when written), in order of first mention. */
  mentions: string[];
  likes: string[];
  /** Beyond the seed's fields: the exact number of likes (likes holds the newest 10 at most), and whether the caller is one. */
  likesCount: number;
  isLiked: boolean;
  repliesCount: number;
  createdAt: string;
  updatedAt: string;
}

export function toComment(item: CommentItem, likes: string[], isLiked = false): Comment {
  return {
    _id: item.id,
    text: item.text,
    author: item.author,
    post: item.post,
    parentComment: item.parentComment ?? null,
    replyTo: item.replyTo ?? null,
    mentions: item.mentions ?? [],
    likes,
    likesCount: item.likesCount ?? 0,
    isLiked,
    repliesCount: item.repliesCount ?? 0,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}

/** The fields a log record shows of a comment. */
export function auditable(item: CommentItem): Record<string, unknown> {
  const { id: _id, text, author, post, parentComment, replyTo, createdAt } = item;
  return { _id, text, author, post, parentComment, replyTo, createdAt };
}


/** Authors whose block with the caller hides this comment: post, parent and own author. */
export const chainAuthors = (item: CommentItem): string[] =>
  [item.postAuthor, item.parentAuthor, item.author].filter((a): a is string => !!a);

export async function getComment(commentId: string): Promise<CommentItem | undefined> {
  if (!isId(commentId)) return undefined;
  const res = await db.send(new GetCommand({ TableName: TABLE, Key: keys.comment(commentId.toUpperCase()), ConsistentRead: true }));
  return res.Item as CommentItem | undefined;
}
