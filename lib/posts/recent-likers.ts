// The newest likers of each post, kept by the stream in an item beside the post
// (POST#<id> / #LIKERS; docs/ARCHITECTURE.md, "Recent likers beside the post"). A page of
// posts then presents its `likes` arrays from the one BatchGet it sends for the caller's flags,
// instead of one likes-index Query per post (lib/posts/present.ts).
//
// Every like and unlike moves the post's likesV in its own transaction (lib/posts/edges.ts),
// and so does an account deletion's removal of its likes (lib/account/cleanup.ts). Readers use
// the item only while its v equals the post's likesV; otherwise they read the index, as before.
// The item is not the post item itself: every like's transaction updates the post item, and
// DynamoDB refuses a plain write to an item that a transaction holds, which a hot post's is
// nearly all the time.
//
// Idempotent and order-free. Each run reads the post, the item and the changed like edge
// consistently, and writes only when the item is behind the post or does not show that edge
// as it stands (listed exactly when it exists and is among the newest). The runs for one
// post take turns within the consumer (changes of different edges otherwise run in parallel,
// lib/events/changes.ts), and every write is a compare-and-swap on the item's rev: a run that
// still meets another (a replay, a redrive) starts again from the newer item instead of
// overwriting it. When the index does not show the edge (or the count) yet, the run waits
// for it (IndexBehind, retried by the stream) unless the post moved on since, whose change
// runs this again.
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { db, TABLE } from '../db/client';
import { batchGet, itemKey } from '../db/batch';
import * as keys from '../keys';
import { INDEX } from '../keys';
import { newId } from '../ids';
import { IndexBehind } from '../graph/recent';
import { typeOf, type Change, type Reaction } from '../events/changes';
import { LIKES_EMBED } from './present';

/** The item beside the post: its newest likers and the likes index sort key of the oldest of them. */
export interface RecentLikersItem {
  PK: string;
  SK: string;
  type: 'LIKERS';
  postId: string;
  /** Liker ids, newest first, at most LIKES_EMBED.list. */
  ids: string[];
  /** `<createdAt>#<userId>` of the last id (absent with no likes). */
  floor?: string;
  /** The post's likesV these ids reflect. */
  v: number;
  /** Changes with every write: the compare-and-swap token. */
  rev: string;
}

const LIMIT = LIKES_EMBED.list;

/** The item for the newest like edges' sort keys (`<createdAt>#<userId>`, newest first, at most LIMIT). */
export const likersItem = (postId: string, sks: string[], v: number, rev: string): RecentLikersItem => ({
  ...keys.postLikers(postId), type: 'LIKERS', postId, ids: sks.map((sk) => sk.split('#').pop()!), ...(sks.length ? { floor: sks[sks.length - 1] } : {}), v, rev,
});
/** Compare-and-swap attempts of one run before the change is retried by the stream. */
const ATTEMPTS = 5;

/** The newest like edges of a post, from its likes index: their sort keys, newest first. */
async function newestLikes(postId: string): Promise<string[]> {
  const res = await db.send(new QueryCommand({
    TableName: TABLE,
    IndexName: INDEX.GSI1,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.likesOf(postId) },
    ProjectionExpression: 'GSI1SK',
    ScanIndexForward: false,
    Limit: LIMIT,
  }));
  return (res.Items ?? []).map((i) => String(i.GSI1SK));
}

/**
 * Whether a view of the newest likers shows one user's like as its edge stands: listed
 * exactly when the edge exists (`edgeSk`, its likes index sort key) and is among the newest
 * LIMIT, which a view with room left holds all of.
 */
export function showsEdge(view: { ids: string[]; floor?: string }, userId: string, edgeSk: string | undefined): boolean {
  const listed = view.ids.includes(userId);
  if (edgeSk === undefined) return !listed;
  return listed === (view.ids.length < LIMIT || (view.floor !== undefined && edgeSk >= view.floor));
}

const deleteItem = async (postId: string, rev: string) => {
  try {
    await db.send(new DeleteCommand({
      TableName: TABLE, Key: keys.postLikers(postId), ConditionExpression: '#rev = :rev', ExpressionAttributeNames: { '#rev': 'rev' }, ExpressionAttributeValues: { ':rev': rev },
    }));
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
  }
};

/**
 * Brings a post's recent likers item up to its likesV, showing `userId`'s like as its edge
 * stands (the changed edge; without it, only the version is checked: the benchmark's settle).
 * True when it wrote. A post that is gone takes its item with it.
 */
export async function refreshLikers(postId: string, userId?: string): Promise<boolean> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const found = await batchGet([keys.post(postId), keys.postLikers(postId), ...(userId ? [keys.postLike(postId, userId)] : [])]);
    const post = found.get(itemKey(keys.post(postId)));
    const item = found.get(itemKey(keys.postLikers(postId))) as RecentLikersItem | undefined;
    if (!post) {
      if (item) await deleteItem(postId, item.rev);
      return false;
    }
    const version = Number(post.likesV ?? 0);
    const edge = userId ? found.get(itemKey(keys.postLike(postId, userId))) : undefined;
    const edgeSk = edge ? String(edge.GSI1SK) : undefined;
    const shown = (view: { ids: string[]; floor?: string }) => !userId || showsEdge(view, userId, edgeSk);
    // Written since from a later read of the post: that run has it.
    if (item && item.v > version) return false;
    if (item && item.v === version && shown(item)) return false;
    const sks = await newestLikes(postId);
    const view = likersItem(postId, sks, version, newId());
    if (view.ids.length !== Math.min(Number(post.likesCount ?? 0), LIMIT) || !shown(view)) {
      // Either the index lags, or the likes moved on since the read (that change runs this again).
      const now = await db.send(new GetCommand({ TableName: TABLE, Key: keys.post(postId), ProjectionExpression: 'likesV', ConsistentRead: true }));
      if (!now.Item || Number(now.Item.likesV ?? 0) !== version) return false;
      throw new IndexBehind(`The likes index of post ${postId} does not show its likes yet (likesV ${version})`);
    }
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
    const still = await db.send(new GetCommand({ TableName: TABLE, Key: keys.post(postId), ProjectionExpression: 'PK', ConsistentRead: true }));
    if (!still.Item) await deleteItem(postId, view.rev);
    return true;
  }
  throw new Error(`The recent likers of post ${postId} changed under ${ATTEMPTS} attempts in a row`);
}

/** The run in flight (and those queued behind it) per post, in this process. */
const inFlight = new Map<string, Promise<unknown>>();

/**
 * Runs for one post one after the other. A batch of a hot post's likes holds many of its
 * records, whose runs would otherwise race each other's compare-and-swap (each loser reads
 * and queries again); one after the other, the first brings the item up to date and the rest
 * find their like shown, with one BatchGet each. A post's records all come through one shard
 * (their items share its partition key), so one process sees them all.
 */
function oneAtATime<T>(postId: string, run: () => Promise<T>): Promise<T> {
  const mine = (inFlight.get(postId) ?? Promise.resolve()).then(run);
  const settled = mine.catch(() => undefined);
  inFlight.set(postId, settled);
  void settled.then(() => { if (inFlight.get(postId) === settled) inFlight.delete(postId); });
  return mine;
}

/** A like of a post came or went (comment likes live under COMMENT#: no item of theirs). */
export const likersReactions: Reaction[] = [
  {
    name: 'recent-likers',
    matches: (c: Change) => typeOf(c) === 'LIKE' && c.PK.startsWith('POST#') && (c.event === 'INSERT' || c.event === 'REMOVE'),
    run: async (c) => {
      const edge = (c.newImage ?? c.oldImage)!;
      const postId = String(edge.postId);
      await oneAtATime(postId, () => refreshLikers(postId, String(edge.userId)));
    },
  },
];
