// The write side of the home feed (contract section 11), run from the table's change stream
// (lib/events): what follows a new post, a deleted post, a follow, an unfollow and an author
// passing FANOUT_MAX_FOLLOWERS. Every step is idempotent (entries are Puts and Deletes of
// fixed keys), so a retried or replayed change writes nothing twice.
//
// Races with the change that would undo a write are closed by writing first and checking
// after: a fan-out chunk that finds its post gone once it has written removes what it wrote
// (a deletion that commits after that check triggers the removal job, which runs after it),
// and a follow's backfill that finds the follow gone removes its entries.
import { GetCommand, QueryCommand, DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { db, TABLE } from '../db/client';
import { batchGet, batchWrite, itemKey } from '../db/batch';
import * as keys from '../keys';
import { INDEX } from '../keys';
import { idTime } from '../ids';
import type { JobKind } from '../events/jobs';
import { homeEntry, type HomeEntry } from '../posts/home-entry';

/** Followers a fan-out chunk covers: one Query page of them, then their entries. */
export const FANOUT_CHUNK = 1000;
/**
 * A fan-out step goes on from chunk to chunk until this long has passed, then leaves the rest
 * to its next step: bounded work per invocation whatever the author's audience, and few stream
 * hops for a large one (each hop is a wait on the stream: 10 of them for 10,000 followers took
 * the fan-out past the contract's 5 seconds on this machine). A failed step is retried from the
 * chunk it started at; its entries are Puts of fixed keys, so nothing is written twice.
 */
export const FANOUT_STEP_BUDGET_MS = 1_500;
/** The step budget in force (tests set it: 0 is one chunk a step). */
export const fanoutTuning = { stepBudgetMs: FANOUT_STEP_BUDGET_MS };
/** Posts of a newly followed account copied into the follower's feed (contract section 11). */
export const BACKFILL_POSTS = 20;
const WRITE_PARALLELISM = 8;

const exists = async (key: { PK: string; SK: string }) =>
  (await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true, ProjectionExpression: 'PK' }))).Item !== undefined;

const encode = (key: Record<string, unknown> | undefined) => (key ? JSON.stringify(key) : undefined);
const decode = (cursor: string | undefined) => (cursor ? JSON.parse(cursor) as Record<string, unknown> : undefined);

/** One page of an author's followers, oldest follow first (a follower arriving mid-walk lands at the end, still ahead). */
async function followerPage(authorId: string, cursor: string | undefined, limit: number) {
  const res = await db.send(new QueryCommand({
    TableName: TABLE,
    IndexName: INDEX.GSI2,
    KeyConditionExpression: 'GSI2PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.followersOf(authorId) },
    ProjectionExpression: 'PK, SK, GSI2PK, GSI2SK, followerId',
    ScanIndexForward: true,
    Limit: limit,
    ExclusiveStartKey: decode(cursor),
  }));
  return { followerIds: (res.Items ?? []).map((i) => String(i.followerId)), next: encode(res.LastEvaluatedKey) };
}

const putEntries = (entries: HomeEntry[]) => batchWrite(entries.map((Item) => ({ PutRequest: { Item } })), { parallel: WRITE_PARALLELISM });
const deleteKeys = (ks: { PK: string; SK: string }[]) => batchWrite(ks.map((Key) => ({ DeleteRequest: { Key } })), { parallel: WRITE_PARALLELISM });

export interface FanoutParams extends Record<string, unknown> {
  postId: string;
  authorId: string;
  op: 'add' | 'remove';
}

/**
 * Copies a post into (or removes it from) the feeds of its author's followers, FANOUT_CHUNK
 * followers a chunk, chunks until FANOUT_STEP_BUDGET_MS a step.
 */
export const fanoutJob: JobKind<FanoutParams> = {
  kind: 'fanout',
  async step({ postId, authorId, op }, cursor) {
    const started = Date.now();
    if (op === 'add' && !(await exists(keys.post(postId)))) return undefined; // deleted: the removal job takes over
    let at = cursor;
    for (;;) {
      const page = await followerPage(authorId, at, FANOUT_CHUNK);
      if (op === 'remove') {
        await deleteKeys(page.followerIds.map((f) => keys.homeEntry(f, postId)));
      } else {
        // `fanout`: the entry's INSERT tells the reader's live connections (lib/live/reactions.ts).
        await putEntries(page.followerIds.map((f) => ({ ...homeEntry(f, postId, authorId), fanout: true })));
        if (!(await exists(keys.post(postId)))) {
          await deleteKeys(page.followerIds.map((f) => keys.homeEntry(f, postId)));
          return undefined;
        }
      }
      at = page.next;
      if (!at || Date.now() - started >= fanoutTuning.stepBudgetMs) return at;
    }
  },
};

/** The newest posts of an author, newest first, as ids (the author's GSI1 list). */
async function postIdsOf(authorId: string, limit: number, startKey?: Record<string, unknown>) {
  const res = await db.send(new QueryCommand({
    TableName: TABLE,
    IndexName: INDEX.GSI1,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.postsOf(authorId) },
    ProjectionExpression: 'PK, SK, GSI1PK, GSI1SK',
    ScanIndexForward: false,
    Limit: limit,
    ExclusiveStartKey: startKey,
  }));
  return { ids: (res.Items ?? []).map((i) => String(i.GSI1SK)), next: res.LastEvaluatedKey };
}

/**
 * After reader follows author: the author's newest posts go into the reader's feed, or, for an
 * author whose posts are read at read time, the pull source. Undone if the follow is gone by then.
 */
export async function backfill(readerId: string, authorId: string): Promise<void> {
  const author = (await db.send(new GetCommand({ TableName: TABLE, Key: keys.user(authorId), ConsistentRead: true, ProjectionExpression: 'pullMode' }))).Item;
  if (!author) return; // the account is gone
  const follow = keys.follow(readerId, authorId);
  if (author.pullMode === true) {
    // The conversion's job may already have walked past this follower: the source is written here too.
    await db.send(new PutCommand({ TableName: TABLE, Item: { ...keys.pullSource(readerId, authorId), type: 'PULL', authorId } }));
    if (!(await exists(follow))) await db.send(new DeleteCommand({ TableName: TABLE, Key: keys.pullSource(readerId, authorId) }));
    return;
  }
  const { ids } = await postIdsOf(authorId, BACKFILL_POSTS);
  await putEntries(ids.map((id) => homeEntry(readerId, id, authorId)));
  if (!(await exists(follow))) await deleteKeys(ids.map((id) => keys.homeEntry(readerId, id)));
}

export interface UnfollowParams extends Record<string, unknown> {
  readerId: string;
  authorId: string;
  /** When the follow began: entries exist for the author's posts since then and the backfill before it. */
  since: string;
}

/**
 * After reader stops following author: removes the author's posts from the reader's feed, newest
 * first, down to the backfill of when the follow began. (Reads already leave them out: this is
 * the storage catching up.) If the reader follows the author again meanwhile, the backfill is
 * done again, so a quick unfollow-follow never leaves the feed without the newest posts.
 */
export const unfollowJob: JobKind<UnfollowParams> = {
  kind: 'unfollow',
  async step({ readerId, authorId, since }, cursor) {
    const state = cursor ? JSON.parse(cursor) as { key?: Record<string, unknown>; older: number } : { older: 0 };
    const sinceMs = Date.parse(since);
    const page = await postIdsOf(authorId, FANOUT_CHUNK, state.key);
    const ids: string[] = [];
    let older = state.older;
    for (const id of page.ids) {
      if (idTime(id) < sinceMs && ++older > BACKFILL_POSTS) break;
      ids.push(id);
    }
    await deleteKeys(ids.map((id) => keys.homeEntry(readerId, id)));
    if (await exists(keys.follow(readerId, authorId))) {
      await backfill(readerId, authorId);
      return undefined;
    }
    const done = older > BACKFILL_POSTS || !page.next;
    return done ? undefined : JSON.stringify({ key: page.next, older });
  },
};

/** Posts of an author read at once by removeAuthorFromFeeds; beyond them each reader is walked alone. */
const AUTHOR_POSTS_AT_ONCE = 1000;

/**
 * Readers stop following an author for good (the deletion of the author's account): the
 * author's entries in their feeds (its posts since each follow, and the BACKFILL_POSTS before
 * it, as the unfollow job removes them) and their pull sources, removed now rather than by the
 * stream's unfollow reactions (which also run, finding nothing left). Call once the follows
 * are deleted. The author's post ids are read once for all the readers.
 */
export async function removeAuthorFromFeeds(authorId: string, readers: { readerId: string; since: string }[]): Promise<void> {
  if (!readers.length) return;
  const [posts, author] = await Promise.all([
    postIdsOf(authorId, AUTHOR_POSTS_AT_ONCE),
    db.send(new GetCommand({ TableName: TABLE, Key: keys.user(authorId), ProjectionExpression: 'pullMode' })),
  ]);
  // Pull sources exist only for an author who passed FANOUT_MAX_FOLLOWERS (pullMode stays set).
  const entries: { PK: string; SK: string }[] = !author.Item?.pullMode
    ? []
    : readers.map((r) => keys.pullSource(r.readerId, authorId));
  for (const { readerId, since } of readers) {
    if (posts.next) {
      await db.send(new DeleteCommand({ TableName: TABLE, Key: keys.pullSource(readerId, authorId) }));
      let cursor: string | undefined;
      do cursor = await unfollowJob.step({ readerId, authorId, since }, cursor); while (cursor !== undefined);
      continue;
    }
    // Newest first: every post since the follow, then BACKFILL_POSTS older ones.
    const sinceMs = Date.parse(since);
    let older = 0;
    for (const id of posts.ids) {
      if (idTime(id) < sinceMs && ++older > BACKFILL_POSTS) break;
      entries.push(keys.homeEntry(readerId, id));
    }
  }
  await deleteKeys(entries);
}

export interface PullParams extends Record<string, unknown> {
  authorId: string;
}

/** An author passed FANOUT_MAX_FOLLOWERS: every follower's feed gets the author as a pull source. */
export const pullSourcesJob: JobKind<PullParams> = {
  kind: 'pull-sources',
  async step({ authorId }, cursor) {
    const page = await followerPage(authorId, cursor, FANOUT_CHUNK);
    await batchWrite(page.followerIds.map((f) => ({ PutRequest: { Item: { ...keys.pullSource(f, authorId), type: 'PULL', authorId } } })), { parallel: WRITE_PARALLELISM });
    // A follower who left while this chunk was written keeps no source (the unfollow's own removal may have run first).
    const follows = await batchGet(page.followerIds.map((f) => keys.follow(f, authorId)), { projection: 'followerId' });
    const gone = page.followerIds.filter((f) => !follows.has(itemKey(keys.follow(f, authorId))));
    if (gone.length) await deleteKeys(gone.map((f) => keys.pullSource(f, authorId)));
    // Every follower has the source (a later follow writes its own): the author's posts stop being copied.
    if (!page.next) {
      await db.send(new UpdateCommand({
        TableName: TABLE, Key: keys.user(authorId), UpdateExpression: 'SET pullReady = :true',
        ConditionExpression: 'attribute_exists(PK)', ExpressionAttributeValues: { ':true': true },
      })).catch((err: unknown) => { if (!(err instanceof ConditionalCheckFailedException)) throw err; });
    }
    return page.next;
  },
};
