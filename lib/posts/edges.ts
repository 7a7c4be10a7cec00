// Likes and bookmarks of a post. Each change is ONE transaction: the conditional edge
// put/delete, the post's likesCount (likes only), checks that no block stands between
// the caller and the author, and the trace record. An edge that already is (or is not)
// there fails its condition, and the request becomes a logged no-op: liking twice
// leaves one like and the counter exact, however many requests race.
import { TABLE } from '../db/client';
import type { Counted, Counter, TxItem } from '../db/transact';
import * as keys from '../keys';
import { Forbidden, NotFound } from '../errors';
import { recordChange, recordCountedChange } from '../audit/records';
import { diffState } from '../audit/diff';
import type { TraceContext } from '../audit/context';
import type { PostItem } from './model';

export interface EdgeContext {
  post: PostItem;
  callerId: string;
  trace: TraceContext;
  payload: Record<string, unknown>;
  /** The author is a private account (contract section 18): the caller must follow it. Unset: the author must not be private. */
  authorPrivate?: boolean;
}

/** The author turned out private: the action is tried again as a follower's (likeOrBookmark). */
export class AuthorPrivate extends NotFound {
  constructor() { super('post'); }
}

/**
 * Section 18 in the action's own transaction, so a like or a bookmark keeps its round trips: the
 * author is not private, or (asked again after AuthorPrivate) the caller follows the author.
 */
function privacyCheck(c: EdgeContext): TxItem[] {
  if (c.post.author === c.callerId) return [];
  if (c.authorPrivate) {
    return [{
      op: { ConditionCheck: { TableName: TABLE, Key: keys.follow(c.callerId, c.post.author), ConditionExpression: 'attribute_exists(PK)' } },
      onConditionFailed: () => new NotFound('post'),
    }];
  }
  return [{
    op: {
      ConditionCheck: {
        TableName: TABLE, Key: keys.user(c.post.author),
        ConditionExpression: 'attribute_not_exists(isPrivate) OR isPrivate = :f', ExpressionAttributeValues: { ':f': false },
      },
    },
    onConditionFailed: () => new AuthorPrivate(),
  }];
}

/** A like or a bookmark, tried as on a public author's post first, then as a follower's when the author is private. */
export async function asSeen<T>(c: EdgeContext, run: (c: EdgeContext) => Promise<T>): Promise<T> {
  try {
    return await run(c);
  } catch (err) {
    if (!(err instanceof AuthorPrivate)) throw err;
    return run({ ...c, authorPrivate: true });
  }
}

const absent = (key: { PK: string; SK: string }, error: () => NotFound | Forbidden): TxItem => ({
  op: { ConditionCheck: { TableName: TABLE, Key: key, ConditionExpression: 'attribute_not_exists(PK)' } },
  onConditionFailed: error,
});

/**
 * No block between caller and author: the author's block hides the post (404); the
 * caller's own block forbids liking and bookmarking (403) but not undoing them.
 */
function blockChecks(c: EdgeContext, callerBlockForbids: boolean): TxItem[] {
  if (c.post.author === c.callerId) return [];
  // An author hidden from everyone (lib/users/gone.ts) is, to the caller, one that blocked them.
  const checks = [absent(keys.block(c.post.author, c.callerId), () => new NotFound('post')), absent(keys.gone(c.post.author), () => new NotFound('post'))];
  if (callerBlockForbids) checks.push(absent(keys.block(c.callerId, c.post.author), () => new Forbidden('You blocked the author of this post.')));
  return checks;
}

/**
 * The post's likesCount as the change moves it: conditioned on the count the handler read with
 * the post, so the answer is that count plus or minus one, with no read after the write
 * (lib/db/transact.ts countedChange).
 */
const likesCounter = (post: PostItem, delta: 1 | -1): Counter => ({
  key: keys.post(post.id), field: 'likesCount', seen: post.likesCount ?? 0, delta, onMissing: () => new NotFound('post'),
  stamp: { field: 'likesCountAt', seen: post.likesCountAt },
  // The recent likers beside the post are stale until the stream catches up (lib/posts/recent-likers.ts).
  bump: 'likesV',
});

const postExists = (postId: string): TxItem => ({
  op: { ConditionCheck: { TableName: TABLE, Key: keys.post(postId), ConditionExpression: 'attribute_exists(PK)' } },
  onConditionFailed: () => new NotFound('post'),
});

interface Mutation {
  type: string;
  description: string;
  /** Items whose failure is an error (checks, counters). */
  guards: TxItem[];
  /** The edge put/delete; its failed condition makes the request a no-op. */
  edge: TxItem;
  diff: ReturnType<typeof diffState>;
}

/** Runs a mutation; true when it changed something, false for an (audited) no-op. */
async function apply(c: EdgeContext, m: Mutation): Promise<boolean> {
  const log = { type: m.type, description: m.description, actorId: c.callerId, payload: c.payload };
  // Guards come first: when one fails with the edge, the guard's error is the answer.
  return recordChange(c.trace, [...m.guards, m.edge], m.edge, { ...log, diff: m.diff }, `${m.description} (no change)`);
}

/** apply() for a like or an unlike: the post's count moves with the edge and comes back in the answer. */
function applyCounted(c: EdgeContext, m: Mutation, counter: Counter): Promise<Counted> {
  const log = { type: m.type, description: m.description, actorId: c.callerId, payload: c.payload };
  return recordCountedChange(c.trace, (step) => [...m.guards, step, m.edge], m.edge, counter, { ...log, diff: m.diff }, `${m.description} (no change)`);
}

/** The like edge of a post; it names the post's author, whom its notification goes to (lib/notifications). */
export const postLikeItem = (postId: string, userId: string, createdAt: string, postAuthor: string) => ({
  ...keys.postLike(postId, userId),
  ...keys.likeIndexes(postId, userId, createdAt),
  type: 'LIKE', postId, userId, createdAt, postAuthor,
});

/** The bookmark edge: a user's bookmark of a post. */
export const bookmarkItem = (userId: string, postId: string, createdAt: string) => ({
  ...keys.bookmark(userId, postId),
  ...keys.bookmarkIndexes(userId, postId, createdAt),
  type: 'BOOKMARK', userId, postId, createdAt,
});

/** Likes the post; the answer's likesCount is the count right after this like (or as it stood, for a repeated like). */
export function likePost(c: EdgeContext): Promise<Counted> {
  const edge = postLikeItem(c.post.id, c.callerId, new Date().toISOString(), c.post.author);
  return applyCounted(c, {
    type: 'POST_LIKED',
    description: 'A post was liked.',
    guards: [...blockChecks(c, true), ...privacyCheck(c)],
    edge: { op: { Put: { TableName: TABLE, Item: edge, ConditionExpression: 'attribute_not_exists(PK)' } } },
    diff: diffState(null, { postId: edge.postId, userId: edge.userId, createdAt: edge.createdAt }),
  }, likesCounter(c.post, 1));
}

export function unlikePost(c: EdgeContext): Promise<Counted> {
  return applyCounted(c, {
    type: 'POST_UNLIKED',
    description: 'A post was unliked.',
    guards: blockChecks(c, false),
    edge: { op: { Delete: { TableName: TABLE, Key: keys.postLike(c.post.id, c.callerId), ConditionExpression: 'attribute_exists(PK)' } } },
    diff: diffState({ postId: c.post.id, userId: c.callerId }, null),
  }, likesCounter(c.post, -1));
}

export function bookmarkPost(c: EdgeContext): Promise<boolean> {
  const createdAt = new Date().toISOString();
  const item = bookmarkItem(c.callerId, c.post.id, createdAt);
  return apply(c, {
    type: 'POST_BOOKMARKED',
    description: 'A post was bookmarked.',
    guards: [...blockChecks(c, true), postExists(c.post.id), ...privacyCheck(c)],
    edge: { op: { Put: { TableName: TABLE, Item: item, ConditionExpression: 'attribute_not_exists(PK)' } } },
    diff: diffState(null, { postId: c.post.id, userId: c.callerId, createdAt }),
  });
}

export function unbookmarkPost(c: EdgeContext): Promise<boolean> {
  return apply(c, {
    type: 'POST_UNBOOKMARKED',
    description: 'A bookmark was removed.',
    guards: blockChecks(c, false),
    edge: { op: { Delete: { TableName: TABLE, Key: keys.bookmark(c.callerId, c.post.id), ConditionExpression: 'attribute_exists(PK)' } } },
    diff: diffState({ postId: c.post.id, userId: c.callerId }, null),
  });
}
