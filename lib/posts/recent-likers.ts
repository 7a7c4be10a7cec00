// The newest likers of each post and each comment, kept by the stream in an item beside it
// (POST#<id> / #LIKERS, COMMENT#<id> / #LIKERS; docs/ARCHITECTURE.md, "Recent likers beside
// the post"). A page of posts then presents its `likes` arrays from the one BatchGet it sends
// for the caller's flags (lib/posts/present.ts), and a page of comments from one BatchGet
// (lib/comments/list.ts), instead of one likes-index Query per liked post or comment.
//
// Every like and unlike moves the liked record's likesV in its own transaction
// (lib/posts/edges.ts, lib/comments/like.ts), and so does an account deletion's removal of its
// likes (lib/account/cleanup.ts). Readers use the item only while its v and likesCount equal
// the record's; otherwise they read the index, as before. Below, "post" stands for either.
// The item is not the post item itself: every like's transaction updates the post item, and
// DynamoDB refuses a plain write to an item that a transaction holds, which a hot post's is
// nearly all the time.
//
// Idempotent and order-free. Each run reads the post, the item and the changed like edges
// consistently, and writes only when the item is behind the post or does not show one of
// those edges as it stands (listed exactly when it exists and is among the newest). A view
// read from the index is written only when it shows those edges, holds as many likes as the
// post counts (up to 10), and drops nothing the item listed whose edge still stands where
// the view has room or rank for it: so a lagging index (AWS's GSI propagation, or a replica
// behind one read before) can neither leave out a like that a run has seen nor bring back an
// unliked one. Otherwise the run reads again, and fails (IndexBehind, retried by the stream)
// while the post has not moved on. The runs for one post go in waves: the records that arrive while a run is in
// flight are checked together by the next one (one BatchGet for all their edges). Every
// write is a compare-and-swap on the item's rev: a run that still meets another (a replay,
// a redrive) starts again from the newer item instead of overwriting it.
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { db, TABLE } from '../db/client';
import { batchGet, itemKey } from '../db/batch';
import * as keys from '../keys';
import { newId } from '../ids';
import { IndexBehind } from '../graph/recent';
import { typeOf, type Change, type Reaction } from '../events/changes';
import { LIKES_EMBED } from './present';
import { likeKeys } from './likers';
import { likerOf } from './likers-item';

/** The item beside the post or comment: its newest like edges, newest first, as the likes index sorts them. */
export interface RecentLikersItem {
  PK: string;
  SK: string;
  type: 'LIKERS';
  /** The liked post's or comment's id. */
  targetId: string;
  /** `<createdAt>#<userId>` of the newest likes (the likes index sort keys), newest first, at most LIMIT. */
  sks: string[];
  /** The post's likesV these likes reflect, and its likesCount at that version. */
  v: number;
  likesCount: number;
  /** Changes with every write: the compare-and-swap token. */
  rev: string;
}

const LIMIT = LIKES_EMBED.list;
/** Reads of one run before its records are retried by the stream (the post's likes kept moving). */
const ATTEMPTS = 5;

/** A run gave up: the post's likes moved under every one of its reads (the stream retries the records; a later like's run catches up). */
export class LikesMoving extends Error {}

/** What is liked: a post or a comment, and the keys of its record, its item and its like edges. */
export interface Target {
  id: string;
  record: { PK: string; SK: string };
  item: { PK: string; SK: string };
  like(userId: string): { PK: string; SK: string };
}

export const postTarget = (postId: string): Target => ({
  id: postId, record: keys.post(postId), item: keys.postLikers(postId), like: (u) => keys.postLike(postId, u),
});
export const commentTarget = (commentId: string): Target => ({
  id: commentId, record: keys.comment(commentId), item: keys.commentLikers(commentId), like: (u) => keys.commentLike(commentId, u),
});

/** The item for the newest like edges' sort keys (newest first, at most LIMIT), at the record's likesV and likesCount. */
export const likersItem = (target: Target, sks: string[], record: { likesV: number; likesCount: number }, rev: string): RecentLikersItem => ({
  ...target.item, type: 'LIKERS', targetId: target.id, sks, v: record.likesV, likesCount: record.likesCount, rev,
});

/** Whether a like whose edge has sort key `sk` belongs among a view's newest: a view with room holds every like. */
const within = (sks: string[], sk: string) => sks.length < LIMIT || sk >= sks[sks.length - 1]!;

/**
 * Whether a view of the newest likes shows one user's like as its edge stands (`edgeSk`, its
 * likes index sort key; undefined when the edge is gone): listed, with that sort key,
 * exactly when the edge exists and is among the newest.
 */
export function showsEdge(sks: string[], userId: string, edgeSk: string | undefined): boolean {
  const listed = sks.find((sk) => likerOf(sk) === userId);
  if (edgeSk === undefined) return listed === undefined;
  return within(sks, edgeSk) ? listed === edgeSk : listed === undefined;
}

const deleteItem = async (target: Target, rev: string) => {
  try {
    await db.send(new DeleteCommand({
      TableName: TABLE, Key: target.item, ConditionExpression: '#rev = :rev', ExpressionAttributeNames: { '#rev': 'rev' }, ExpressionAttributeValues: { ':rev': rev },
    }));
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
  }
};

/**
 * The likes a view from the index leaves out although the item showed them and their edges
 * still stand among the newest (a lagging index): read consistently, and only for the
 * item's likes the view dropped while it should have room or rank for them.
 */
async function droppedStanding(target: Target, before: string[], view: string[], known: Map<string, string | undefined>): Promise<boolean> {
  const dropped = before.filter((sk) => !view.includes(sk) && within(view, sk));
  const unknown = dropped.filter((sk) => !known.has(likerOf(sk)));
  const found = unknown.length ? await batchGet(unknown.map((sk) => target.like(likerOf(sk))), { projection: 'GSI1SK' }) : new Map<string, Record<string, unknown>>();
  return dropped.some((sk) => {
    const userId = likerOf(sk);
    const now = known.has(userId) ? known.get(userId) : found.get(itemKey(target.like(userId)))?.GSI1SK;
    return now === sk;
  });
}

/**
 * Brings a post's (or comment's) recent likers item up to its likesV, showing the likes of
 * `userIds` as their edges stand (the changed edges; none: only the version is checked, as
 * the benchmark's settle does). True when it wrote. A record that is gone takes its item with it.
 */
export async function refreshItem(target: Target, userIds: string[] = []): Promise<boolean> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const found = await batchGet([target.record, target.item, ...userIds.map((u) => target.like(u))]);
    const record = found.get(itemKey(target.record));
    const item = found.get(itemKey(target.item)) as RecentLikersItem | undefined;
    if (!record) {
      if (item) await deleteItem(target, item.rev);
      return false;
    }
    const version = Number(record.likesV ?? 0);
    const count = Number(record.likesCount ?? 0);
    // Each changed edge's sort key as it stands (undefined: gone).
    const edges = new Map(userIds.map((u) => [u, found.get(itemKey(target.like(u)))?.GSI1SK as string | undefined]));
    const shown = (sks: string[]) => [...edges].every(([u, sk]) => showsEdge(sks, u, sk));
    // Written since from a later read of the post: that run has it.
    if (item && item.v > version) return false;
    if (item && item.v === version && item.likesCount === count && shown(item.sks)) return false;
    const sks = await likeKeys(target.id, LIMIT);
    const complete = sks.length === Math.min(count, LIMIT) && shown(sks)
      && !(item && await droppedStanding(target, item.sks, sks, edges));
    if (!complete) {
      // Either the index lags, or the likes moved on since the read: read again.
      const now = await db.send(new GetCommand({ TableName: TABLE, Key: target.record, ProjectionExpression: 'likesV', ConsistentRead: true }));
      if (!now.Item) continue;
      if (Number(now.Item.likesV ?? 0) !== version) continue;
      throw new IndexBehind(`The likes index of ${target.record.PK} does not show its likes yet (likesV ${version})`);
    }
    const view = likersItem(target, sks, { likesV: version, likesCount: count }, newId());
    try {
      await db.send(new PutCommand({
        TableName: TABLE,
        Item: view,
        ConditionExpression: item ? '#rev = :rev' : 'attribute_not_exists(PK)',
        ...(item ? { ExpressionAttributeNames: { '#rev': 'rev' }, ExpressionAttributeValues: { ':rev': item.rev } } : {}),
      }));
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) continue;
      throw err;
    }
    // A deletion of the post between the read and the write leaves nothing behind: its
    // cleanup may have drained the partition before this write.
    const still = await db.send(new GetCommand({ TableName: TABLE, Key: target.record, ProjectionExpression: 'PK', ConsistentRead: true }));
    if (!still.Item) await deleteItem(target, view.rev);
    return true;
  }
  throw new LikesMoving(`The likes of ${target.record.PK} moved under ${ATTEMPTS} reads in a row`);
}

/** refreshItem for a post. */
export const refreshLikers = (postId: string, userIds: string[] = []) => refreshItem(postTarget(postId), userIds);
/** refreshItem for a comment. */
export const refreshCommentLikers = (commentId: string, userIds: string[] = []) => refreshItem(commentTarget(commentId), userIds);

/** The run in flight and the wave gathering behind it, per post, in this process. */
const running = new Map<string, Promise<unknown>>();
const gathering = new Map<string, { userIds: Set<string>; done: Promise<boolean> }>();

/**
 * The records of one post's likes go in waves: while a run is in flight, the records that
 * arrive gather into the next, which checks all their edges in one run (one BatchGet) once
 * the first has finished. A batch of a hot post's likes holds many of its records; side by
 * side their runs would race each other's compare-and-swap (each loser reading and querying
 * again), and one by one they would take a round trip each. A post's records all come
 * through one shard (their items share its partition key), so one process sees them all.
 */
export function inWaves(target: Target, userId: string): Promise<boolean> {
  const key = target.record.PK;
  const open = gathering.get(key);
  if (open) {
    open.userIds.add(userId);
    return open.done;
  }
  const userIds = new Set([userId]);
  const done = (running.get(key) ?? Promise.resolve()).then(() => {
    // From here the wave is running: later records gather into the next one.
    gathering.delete(key);
    return refreshItem(target, [...userIds]);
  });
  const settled = done.catch(() => undefined);
  gathering.set(key, { userIds, done });
  running.set(key, settled);
  void settled.then(() => { if (running.get(key) === settled) running.delete(key); });
  return done;
}

/** The liked record of a like edge's change: a post's like lives under POST#, a comment's under COMMENT#. */
const targetOf = (c: Change): Target | undefined => {
  const edge = (c.newImage ?? c.oldImage)!;
  if (c.PK.startsWith('POST#')) return postTarget(String(edge.postId));
  if (c.PK.startsWith('COMMENT#')) return commentTarget(String(edge.targetId));
  return undefined;
};

/** A like of a post or a comment came or went. */
export const likersReactions: Reaction[] = [
  {
    name: 'recent-likers',
    matches: (c: Change) => typeOf(c) === 'LIKE' && (c.event === 'INSERT' || c.event === 'REMOVE') && targetOf(c) !== undefined,
    run: async (c) => {
      await inWaves(targetOf(c)!, String((c.newImage ?? c.oldImage)!.userId));
    },
  },
];
