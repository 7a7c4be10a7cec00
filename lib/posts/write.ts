// Creating and deleting posts. Each is one transaction: the post item (with its author
// list and feed index keys), the author's postsCount, one shard of the global post
// counter and the trace record, so explore's totals (counters) always match its items.
//
// Explore leaves private accounts' posts out, and so must its total (contract sections 5 and
// 18): the counter's shards count them apart (`privatePosts`), moved with the author's
// postsCount under a condition on the author's `isPrivate`; a profile edit that changes
// `isPrivate` moves the author's whole postsCount between the two in its own transaction
// (lib/users/write.ts), conditioned on that postsCount. A post written as the author's
// privacy changes fails that condition and is written again with the state as it is now.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import { ConditionFailed, transact, type TxItem } from '../db/transact';
import * as keys from '../keys';
import { FEED_SHARDS, shardOf } from '../keys';
import { idTime, newId } from '../ids';
import { NotFound } from '../errors';
import { logItem } from '../audit/records';
import { diffState } from '../audit/diff';
import { cleanupJobItem } from '../cleanup/jobs';
import { triggerCleanup } from '../cleanup/trigger';
import type { TraceContext } from '../audit/context';
import { homeEntry } from './home-entry';
import { deleteTagEntries, putTagEntries, tagChanges } from '../tags/entries';
import { getPost, type PostItem } from './model';

export interface NewPost {
  image: string;
  caption: string;
  image_public_id: string;
  /** Ids of the uploaded media the post is made of (contract section 12); deleted with the post. */
  media?: string[];
  /** One per image, "" for none (contract section 19). */
  altText?: string[];
  /** The caption's normalized hashtags and the ids it mentions. */
  hashtags?: string[];
  mentions?: string[];
}

/** What a log record shows of a post. */
const auditable = (p: PostItem) => ({
  _id: p.id, author: p.author, image: p.image, image_public_id: p.image_public_id, caption: p.caption, createdAt: p.createdAt,
});

/** `isPrivate` as the author's item holds it (absent: public). */
const privacyIs = (isPrivate: boolean) => (isPrivate ? '#private = :true' : '(attribute_not_exists(#private) OR #private = :false)');

/**
 * The author's postsCount moved by one, on condition that the author's privacy is `isPrivate`
 * (and, creating, that the author exists; deleting, that the count stays >= 0).
 */
function authorCount(authorId: string, by: 1 | -1, isPrivate: boolean, convert = false): TxItem {
  return {
    op: {
      Update: {
        TableName: TABLE,
        Key: keys.user(authorId),
        // Converting, the author becomes a read-time author: the stream gives every follower's feed the author as a source.
        UpdateExpression: `ADD postsCount :by${convert ? ' SET pullMode = :true' : ''}`,
        ConditionExpression: `${by > 0 ? 'attribute_exists(PK)' : 'postsCount > :zero'} AND ${privacyIs(isPrivate)}`,
        ExpressionAttributeNames: { '#private': 'isPrivate' },
        // DynamoDB refuses a value no expression uses.
        ExpressionAttributeValues: { ':by': by, ...(isPrivate || convert ? { ':true': true } : {}), ...(isPrivate ? {} : { ':false': false }), ...(by > 0 ? {} : { ':zero': 0 }) },
      },
    },
  };
}

/** One shard of the global post counter moved by one; a private author's post moves `privatePosts` too. */
const postCounter = (postId: string, by: 1 | -1, isPrivate: boolean): TxItem => ({
  op: {
    Update: {
      TableName: TABLE,
      Key: keys.postCounterShard(shardOf(postId, FEED_SHARDS)),
      UpdateExpression: isPrivate ? 'ADD #c :by, privatePosts :by' : 'ADD #c :by',
      ExpressionAttributeNames: { '#c': 'count' },
      ExpressionAttributeValues: { ':by': by, ...(by < 0 ? { ':zero': 0 } : {}) },
      ...(by < 0 ? { ConditionExpression: '#c > :zero' } : {}),
    },
  },
});

/**
 * Runs the transaction `build(isPrivate)` with the author's privacy assumed, and once more with
 * it as read now when the author's item refused it (at `authorIndex`) for that reason alone.
 */
async function withAuthorPrivacy(authorId: string, assumed: boolean, authorIndex: number, build: (isPrivate: boolean) => TxItem[]): Promise<void> {
  try {
    await transact(build(assumed));
  } catch (err) {
    if (!(err instanceof ConditionFailed) || err.index !== authorIndex) throw err;
    const author = (await db.send(new GetCommand({ TableName: TABLE, Key: keys.user(authorId), ConsistentRead: true, ProjectionExpression: 'isPrivate' }))).Item;
    const now = author?.isPrivate === true;
    if (!author || now === assumed) throw err;
    await transact(build(now));
  }
}

/** The post item a creation will put; built first so the answer can join the transaction. */
export function buildPost(authorId: string, input: NewPost, fanout = true): PostItem {
  return { ...postItem(newId(), authorId, input), ...(fanout ? {} : { fanout: false }) };
}

/** A post item of a given id, counters at zero. */
export function postItem(id: string, authorId: string, input: NewPost): PostItem {
  // createdAt is the id's own time, so "newest first by id" and "by createdAt" never disagree.
  const createdAt = new Date(idTime(id)).toISOString();
  return {
    ...keys.post(id),
    ...keys.postIndexes(id, authorId),
    type: 'POST',
    id,
    author: authorId,
    image: input.image,
    image_public_id: input.image_public_id,
    caption: input.caption,
    createdAt,
    updatedAt: createdAt,
    likesCount: 0,
    commentsCount: 0,
    ...(input.media?.length ? { media: input.media } : {}),
    ...(input.altText ? { altText: input.altText } : {}),
    ...(input.hashtags?.length ? { hashtags: input.hashtags } : {}),
    ...(input.mentions?.length ? { mentions: input.mentions } : {}),
  };
}

/**
 * How a new post of this author reaches the followers' feeds (lib/feed): copied ('fanout'), or
 * read at read time ('pull'), once the author has more than FANOUT_MAX_FOLLOWERS followers and
 * every follower's feed has the author as a source (`pullReady`). The post that finds the author
 * past the threshold for the first time is still copied and starts that conversion ('convert'):
 * no follower ever misses a post while the sources are being written.
 */
export function feedMode(author: { followersCount?: number; pullMode?: boolean; pullReady?: boolean }, maxFollowers: number): 'fanout' | 'convert' | 'pull' {
  if (author.pullReady === true) return 'pull';
  if (author.pullMode === true) return 'fanout';
  return (author.followersCount ?? 0) > maxFollowers ? 'convert' : 'fanout';
}

/**
 * `authorPrivate`: the author's `isPrivate` as read; a private author's post counts as private
 * in the global counter and not in its tags' postsCount (contract sections 18 and 19).
 */
export async function createPost(post: PostItem, trace: TraceContext, payload: Record<string, unknown>, extra: TxItem[], convert = false, authorPrivate = false): Promise<void> {
  await withAuthorPrivacy(post.author, authorPrivate, 1, (isPrivate) => [
    { op: { Put: { TableName: TABLE, Item: post, ConditionExpression: 'attribute_not_exists(PK)' } } },
    authorCount(post.author, 1, isPrivate, convert),
    // The author's own feed shows the post as soon as the creation has answered (contract section 11).
    { op: { Put: { TableName: TABLE, Item: homeEntry(post.author, post.id, post.author) } } },
    postCounter(post.id, 1, isPrivate),
    logItem(trace, {
      type: 'POST_CREATED',
      description: 'A post was created.',
      actorId: post.author,
      payload,
      diff: diffState(null, auditable(post)),
    }),
    // The post's entries on its tags' pages.
    ...putTagEntries(post.hashtags ?? [], post.id, post.author, !isPrivate),
    ...extra,
  ]);
}

/**
 * Removes the post itself (so every read stops showing it at once), its counters and
 * writes the cleanup job for its likes, comments and bookmarks, all in one transaction;
 * then starts the cleanup worker on that job (as deleteComment does). `authorPrivate`: the
 * author's `isPrivate` when known (a wrong guess costs one more attempt).
 */
export async function deletePost(post: PostItem, trace: TraceContext, payload: Record<string, unknown>, actorId = post.author, also: TxItem[] = [], authorPrivate = false): Promise<void> {
  await withAuthorPrivacy(post.author, authorPrivate, also.length + 1, (isPrivate) => [
    // Written with the deletion or not at all (a moderator's resolution of the report); first, so
    // that when both fail, theirs is the answer.
    ...also,
    {
      op: { Delete: { TableName: TABLE, Key: keys.post(post.id), ConditionExpression: 'attribute_exists(PK)' } },
      onConditionFailed: () => new NotFound('post'),
    },
    authorCount(post.author, -1, isPrivate),
    postCounter(post.id, -1, isPrivate),
    cleanupJobItem('post', post.id, post.media),
    ...deleteTagEntries(post.hashtags ?? [], post.id),
    { op: { Delete: { TableName: TABLE, Key: keys.postMentions(post.id) } } },
    logItem(trace, {
      type: 'POST_DELETED',
      description: 'A post was deleted.',
      actorId,
      payload,
      diff: diffState(auditable(post), null),
    }),
  ]);
  // Likes, comments and bookmarks are already unreachable; the worker removes them physically.
  await triggerCleanup('post', post.id);
}

/** A caption edit's new updatedAt: now, and always later than the one it replaces (an edit in the post's own millisecond). */
export function nextUpdatedAt(previous: string, now = Date.now()): string {
  return new Date(Math.max(now, Date.parse(previous) + 1)).toISOString();
}

/** What an edit changes: the caption (with its hashtags and mentions) and/or the alt text. */
export interface PostEdit {
  caption?: string;
  hashtags?: string[];
  mentions?: string[];
  altText?: string[];
}

/**
 * Changes a post's caption and alt text (POST /posts/edit/{post_id}): one transaction of the
 * post's update, conditional on the post still being there and the caller's (a deletion racing
 * the edit makes it a 404), the entries of the tags it adds and drops, and its POST_UPDATED
 * record. Returns the post as updated. `counted`: the author is public, so the post counts in its
 * tags' postsCount (contract section 19).
 */
export async function editPost(post: PostItem, edit: PostEdit, trace: TraceContext, payload: Record<string, unknown>, counted = true, attempt = 1): Promise<PostItem> {
  try {
    return await editOnce(post, edit, trace, payload, counted);
  } catch (err) {
    if (!(err instanceof ConditionFailed) || err.index !== 0) throw err;
    // Deleted, or edited since it was read (its tag entries would be those of an older caption): read it again.
    const fresh = await getPost(post.id);
    if (!fresh || fresh.author !== post.author || attempt >= 10) throw new NotFound('post');
    await new Promise((r) => setTimeout(r, Math.random() * 20 * attempt));
    return editPost(fresh, edit, trace, payload, counted, attempt + 1);
  }
}

async function editOnce(post: PostItem, edit: PostEdit, trace: TraceContext, payload: Record<string, unknown>, counted: boolean): Promise<PostItem> {
  const updatedAt = nextUpdatedAt(post.updatedAt);
  const next: PostItem = { ...post, updatedAt };
  if (edit.caption !== undefined) {
    next.caption = edit.caption;
    next.hashtags = edit.hashtags ?? [];
    next.mentions = edit.mentions ?? [];
  }
  if (edit.altText !== undefined) next.altText = edit.altText;
  const sets = ['updatedAt = :updatedAt', 'caption = :caption', 'hashtags = :hashtags', 'mentions = :mentions', 'altText = :altText'];
  const values = { ':updatedAt': updatedAt, ':caption': next.caption, ':hashtags': next.hashtags ?? [], ':mentions': next.mentions ?? [], ':altText': next.altText ?? [] };
  const before = { caption: post.caption, altText: post.altText ?? [], updatedAt: post.updatedAt };
  const after = { caption: next.caption, altText: next.altText ?? [], updatedAt };
  await transact([
    {
      op: {
        Update: {
          TableName: TABLE,
          Key: keys.post(post.id),
          UpdateExpression: `SET ${sets.join(', ')}`,
          // The tag entries below follow from the hashtags this edit read: an edit between that changed
          // them fails this, and editPost reads the post again.
          ConditionExpression: `attribute_exists(PK) AND author = :author AND ${post.hashtags?.length ? 'hashtags = :was' : '(attribute_not_exists(hashtags) OR size(hashtags) = :zero)'}`,
          ExpressionAttributeValues: { ...values, ':author': post.author, ...(post.hashtags?.length ? { ':was': post.hashtags } : { ':zero': 0 }) },
        },
      },
    },
    ...tagChanges(post.hashtags ?? [], next.hashtags ?? [], post.id, post.author, counted),
    // The mentions' change, for the stream's MENTION notifications.
    ...((post.mentions ?? []).join() === (next.mentions ?? []).join() ? [] : [{
      op: {
        Put: {
          TableName: TABLE,
          Item: { ...keys.postMentions(post.id), type: 'MENTIONS', id: post.id, author: post.author, createdAt: post.createdAt, previous: post.mentions ?? [], mentions: next.mentions ?? [], at: updatedAt },
        },
      },
    }]),
    logItem(trace, {
      type: 'POST_UPDATED',
      description: 'A post was edited.',
      actorId: post.author,
      payload,
      diff: diffState(
        Object.fromEntries(Object.entries(before).filter(([k]) => k === 'updatedAt' || (edit as Record<string, unknown>)[k] !== undefined)),
        Object.fromEntries(Object.entries(after).filter(([k]) => k === 'updatedAt' || (edit as Record<string, unknown>)[k] !== undefined)),
      ),
    }),
  ]);
  return next;
}
