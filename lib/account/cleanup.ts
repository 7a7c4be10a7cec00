// The cleanup of a deleted account (contract section 13): within 60 seconds no item of it
// remains and every counter it touched is exact again. The deleting transaction (delete.ts)
// writes one job per kind of item below; the change stream runs them side by side, each in
// bounded steps (lib/events/jobs.ts): Query pages of CHUNK items until a step has removed
// STEP_MAX_ITEMS or run STEP_BUDGET_MS, so an account with 10,000 likes and 5,000 followers is
// a few steps of two jobs running at once, and a step that fails is retried from the page it
// started at.
//
// Each step is idempotent: an edge is removed with its counter in one transaction that names
// the edge's existence as a condition, so a retried step moves no counter twice; posts and
// comments go through their authors' own deletion (lib/posts/write.ts, lib/comments/delete.ts:
// same cascade, same counters), whose cleanup worker drains their children.
//
// When a job has seen its last page it leaves the GONE item's `jobsLeft`; the one that empties
// it starts the final job, which removes the user's own partition (sessions, the login guard,
// the notification state, idempotency records), then the user item and the GONE item together,
// and last the shared most-followed list if it names the account.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, QueryCommand, UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import { batchGet, batchWrite, itemKey, type Key } from '../db/batch';
import { ConditionFailed, transact, type TxItem } from '../db/transact';
import * as keys from '../keys';
import { INDEX } from '../keys';
import { NotFound } from '../errors';
import type { JobKind } from '../events/jobs';
import { deletePost } from '../posts/write';
import type { PostItem } from '../posts/model';
import { deleteComment } from '../comments/delete';
import type { CommentItem } from '../comments/model';
import { removeMedia } from '../media/use';
import { removeAuthorFromFeeds } from '../feed/fanout';
import { logger } from '../log';
import { FINAL_KIND, SWEEP_KINDS, jobItem, jobKind, type AccountParams } from './jobs';
import { goneChanged } from '../users/gone';
import { forgetInTop } from '../graph/popular';
import { INDEX_SETTLE_MS } from '../cleanup/worker';

/** Items per Query page. */
export const CHUNK = 500;
/** A step ends after the page that reaches either bound (the consumer's timeout is 60 s). */
export const STEP_MAX_ITEMS = 5_000;
export const STEP_BUDGET_MS = 10_000;
/**
 * A sweep that reads an index and reaches its end sooner than INDEX_SETTLE_MS after the
 * deletion goes over its range again from the start, this long after (a step of its own: the
 * stream's worker is not held the whole margin).
 */
export const SETTLE_PAUSE_MS = 500;
/** The cursor of a settling pass: the range again from its start. */
const SETTLE_CURSOR = 'settle#';
const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * How long after the deletion a request of the account can still write: one whose caller was
 * read just before the deletion committed runs at most the HTTP functions' timeout
 * (serverless.yml provider.timeout; tests/deploy/package.test.ts holds the two together), its
 * retries on a busy item included. None of the account's own writes re-checks the account in its
 * transaction (a follow, a like, a comment, a post), so every sweep reads its range until this
 * has passed: a write that lands after a sweep's first pass is still swept with its counter.
 */
export const REQUEST_MAX_MS = 10_000;

/** How much of the margin is left for this sweep: REQUEST_MAX_MS, and INDEX_SETTLE_MS more for a sweep that reads an index. */
const settleLeft = (sweep: Sweep, params: AccountParams): number =>
  (params.deletedAt ? Math.max(0, REQUEST_MAX_MS + (sweep.range(params.userId).index ? INDEX_SETTLE_MS : 0) - (Date.now() - Date.parse(params.deletedAt))) : 0);

/** Transactions of one step in flight at once. */
const PARALLEL = 16;

type Item = Record<string, unknown>;

interface Sweep {
  kind: string;
  /** The sweep that must be done before this one starts (SWEEP_KINDS). */
  after?: string;
  /** The key range holding the account's items of this kind. */
  range(userId: string): { index?: 'GSI1' | 'GSI2'; pk: string; skPrefix?: string };
  /** Removes one page of them. */
  remove(items: Item[], params: AccountParams): Promise<void>;
}

const keyOf = (i: Item): Key => ({ PK: String(i.PK), SK: String(i.SK) });
const deleteKeys = (items: Item[]) => batchWrite(items.map((i) => ({ DeleteRequest: { Key: keyOf(i) } })), { parallel: 8 });

async function inParallel<T>(items: T[], run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, async () => {
    while (next < items.length) await run(items[next++]!);
  }));
}

/** Edges removed with their counters per transaction (2 items each; a transaction holds 100). */
const PAIRS_PER_TRANSACTION = 50;

interface Counted {
  edge: Key;
  /** The record whose counter the edge stood for; undefined once it is known to be gone. */
  counted?: Key;
  field: string;
}

const edgeDelete = (edge: Key): TxItem => ({ op: { Delete: { TableName: TABLE, Key: edge, ConditionExpression: 'attribute_exists(PK)' } } });
/** The version an edge's counter moves with: a follow's edgesV (lib/graph/recent.ts), a like's likesV (lib/posts/recent-likers.ts). */
const versionOf = (field: string): string | undefined =>
  (field === 'followersCount' || field === 'followingCount' ? 'edgesV' : field === 'likesCount' ? 'likesV' : undefined);
const counterDown = (key: Key, field: string): TxItem => {
  const version = versionOf(field);
  return {
    op: {
      Update: {
        TableName: TABLE,
        Key: key,
        UpdateExpression: version ? 'ADD #f :minus, #v :one' : 'ADD #f :minus',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#f': field, ...(version ? { '#v': version } : {}) },
        ExpressionAttributeValues: version ? { ':minus': -1, ':one': 1 } : { ':minus': -1 },
      },
    },
  };
};

/**
 * Deletes edges and moves the counters they stood for, PAIRS_PER_TRANSACTION a transaction
 * whose every edge delete is conditional on the edge: an edge already gone (a retried step)
 * is dropped and moves nothing; a counted record already gone (a deleted post) leaves its edge
 * to be deleted alone. The records counted are distinct within a call (one like per post, one
 * follow per pair of users), as a transaction needs.
 */
async function removeCounted(pairs: Counted[]): Promise<void> {
  const chunks: Counted[][] = [];
  for (let i = 0; i < pairs.length; i += PAIRS_PER_TRANSACTION) chunks.push(pairs.slice(i, i + PAIRS_PER_TRANSACTION));
  await inParallel(chunks, async (chunk) => {
    let left = chunk.map((p) => ({ ...p }));
    while (left.length) {
      const ops: { op: TxItem; pair: number; edge: boolean }[] = [];
      left.forEach((p, n) => {
        ops.push({ op: edgeDelete(p.edge), pair: n, edge: true });
        if (p.counted) ops.push({ op: counterDown(p.counted, p.field), pair: n, edge: false });
      });
      try {
        await transact(ops.map((o) => o.op));
        return;
      } catch (err) {
        if (!(err instanceof ConditionFailed)) throw err;
        const failed = ops[err.index]!;
        if (failed.edge) left = left.filter((_, n) => n !== failed.pair);
        else left[failed.pair]!.counted = undefined;
      }
    }
  });
}

/**
 * The account's report markers (one per report it filed). Each takes its report's `reporters`
 * count down with it (removeCounted: once, however often the step runs), and a report the
 * account opened loses the note it wrote (its first marker is as old as the report): nothing
 * the account wrote remains (contract section 13). The report stays, for its target: the
 * moderators' to resolve, whoever reported it.
 */
async function forgetReports(items: Item[]): Promise<void> {
  const reportOf = (i: Item) => keys.report(String(i.reportId));
  const reports = await batchGet<{ createdAt?: string; note?: string }>(items.map(reportOf), { projection: '#c, #n', names: { '#c': 'createdAt', '#n': 'note' } });
  const opened = items.filter((i) => {
    const r = reports.get(itemKey(reportOf(i)));
    return r?.note !== undefined && r.createdAt === i.createdAt;
  });
  // Before the markers go: a retried step finds them again and removes the note again (a no-op).
  await inParallel(opened, async (i) => {
    await db.send(new UpdateCommand({
      TableName: TABLE, Key: reportOf(i), UpdateExpression: 'REMOVE #n', ConditionExpression: 'attribute_exists(PK)', ExpressionAttributeNames: { '#n': 'note' },
    })).catch(ignoreConditionFailed);
  });
  await removeCounted(items.map((i) => ({ edge: keyOf(i), counted: reportOf(i), field: 'reporters' })));
}

/**
 * Block edges (whole items of either sweep) with their mirrors (keys.blockedBy). The mirrors go
 * first: the edge is what a retried step finds again, so none is left behind. A block another
 * user made of the account gives that user its blockedCount back, in the edge's own transaction
 * (removeCounted: once, however often the step runs); the account's own blocks need no count,
 * its item goes with the final job.
 */
async function deleteBlocks(items: Item[], p: AccountParams): Promise<void> {
  await deleteKeys(items.map((i) => keys.blockedBy(String(i.blockedId), String(i.blockerId))));
  const theirs = items.filter((i) => String(i.blockerId) !== p.userId);
  await Promise.all([
    deleteKeys(items.filter((i) => String(i.blockerId) === p.userId)),
    removeCounted(theirs.map((i) => ({ edge: keyOf(i), counted: keys.user(String(i.blockerId)), field: 'blockedCount' }))),
  ]);
}

/** Deleting what is gone already is done. */
const unlessGone = (err: unknown) => { if (!(err instanceof NotFound)) throw err; };

const audit = (p: AccountParams) => ({ trace: p.trace, payload: { reason: 'account deleted' }, actorId: p.userId });

const REMOVERS: Sweep[] = [
  {
    // Whom the account follows: their followersCount.
    kind: 'following',
    range: (u) => ({ pk: keys.user(u).PK, skPrefix: 'FOLLOWS#' }),
    remove: (items) => removeCounted(items.map((i) => ({ edge: keyOf(i), counted: keys.user(String(i.followeeId)), field: 'followersCount' }))),
  },
  {
    // Who follows the account: their followingCount, and the account's posts in their feeds
    // (read from the account's posts, which is why the posts sweep waits for this one).
    kind: 'followers',
    range: (u) => ({ index: 'GSI2', pk: keys.followersOf(u) }),
    remove: async (items, p) => {
      await removeCounted(items.map((i) => ({ edge: keyOf(i), counted: keys.user(String(i.followerId)), field: 'followingCount' })));
      await removeAuthorFromFeeds(p.userId, items.map((i) => ({ readerId: String(i.followerId), since: String(i.createdAt) })));
    },
  },
  {
    // Its likes of posts and comments: their likesCount.
    kind: 'likes',
    range: (u) => ({ index: 'GSI2', pk: keys.likesBy(u) }),
    remove: (items) => removeCounted(items.map((i) => ({ edge: keyOf(i), counted: { PK: String(i.PK), SK: String(i.PK).startsWith('POST#') ? 'POST' : 'COMMENT' }, field: 'likesCount' }))),
  },
  {
    // Its comments and replies, as their author's deletion would: commentsCount, repliesCount, their replies and likes.
    kind: 'comments',
    range: (u) => ({ index: 'GSI2', pk: keys.commentsBy(u) }),
    remove: (items, p) => inParallel(items, (i) => deleteComment(i as unknown as CommentItem, audit(p)).catch(unlessGone)),
  },
  {
    // Its posts, as their author's deletion would: their likes, comments, bookmarks, feed entries, media.
    kind: 'posts',
    range: (u) => ({ index: 'GSI1', pk: keys.postsOf(u) }),
    remove: async (items, p) => {
      // The account's privacy once per step: a wrong guess makes each post's deletion try twice.
      const me = (await batchGet<{ isPrivate?: boolean }>([keys.user(p.userId)], { projection: 'isPrivate' })).get(itemKey(keys.user(p.userId)));
      await inParallel(items, (i) => deletePost(i as unknown as PostItem, p.trace, audit(p).payload, p.userId, [], me?.isPrivate === true).catch(unlessGone));
    },
  },
  // Block edges in either direction, each with its mirror in the blocked user's partition.
  { kind: 'blocks', range: (u) => ({ pk: keys.user(u).PK, skPrefix: 'BLOCKS#' }), remove: deleteBlocks },
  { kind: 'blockedBy', range: (u) => ({ index: 'GSI2', pk: keys.blockedByOf(u) }), remove: deleteBlocks },
  { kind: 'bookmarks', range: (u) => ({ pk: keys.user(u).PK, skPrefix: 'BOOKMARKS#' }), remove: deleteKeys },
  { kind: 'reports', range: (u) => ({ index: 'GSI2', pk: keys.reportsBy(u) }), remove: forgetReports },
  { kind: 'media', range: (u) => ({ index: 'GSI2', pk: keys.mediaOf(u) }), remove: (items) => removeMedia(items.map((i) => String(i.id))) },
  { kind: 'home', range: (u) => ({ pk: keys.homeFeed(u) }), remove: deleteKeys },
  { kind: 'notifications', range: (u) => ({ pk: keys.notificationsOf(u) }), remove: deleteKeys },
  {
    // Follow requests to the account: their requesters' requestsOut (the follow limit's count).
    kind: 'requests',
    range: (u) => ({ index: 'GSI1', pk: keys.requestsTo(u) }),
    remove: (items) => removeCounted(items.map((i) => ({ edge: keyOf(i), counted: keys.user(String(i.requesterId)), field: 'requestsOut' }))),
  },
  { kind: 'mutedBy', range: (u) => ({ index: 'GSI2', pk: keys.mutedByOf(u) }), remove: deleteKeys },
];

/** The sweeps in the order and with the dependencies the deleting transaction wrote their jobs (lib/account/jobs.ts). */
export const SWEEPS: Sweep[] = SWEEP_KINDS.map(({ kind, after }) => {
  const sweep = REMOVERS.find((r) => r.kind === kind);
  if (!sweep) throw new Error(`no sweep for the account's ${kind}`);
  return { ...sweep, after };
});

/** The last job: the user's own partition, then the user item and the GONE item together. */
const FINAL: Sweep = {
  kind: FINAL_KIND,
  range: (u) => ({ pk: keys.user(u).PK }),
  remove: (items) => deleteKeys(items.filter((i) => i.SK !== 'PROFILE')),
};


async function page(sweep: Sweep, userId: string, cursor: string): Promise<{ items: Item[]; next?: Record<string, unknown> }> {
  const r = sweep.range(userId);
  const pkName = r.index ? `${r.index}PK` : 'PK';
  const input: QueryCommandInput = {
    TableName: TABLE,
    ...(r.index ? { IndexName: INDEX[r.index] } : { ConsistentRead: true }),
    KeyConditionExpression: r.skPrefix ? '#pk = :pk AND begins_with(SK, :prefix)' : '#pk = :pk',
    ExpressionAttributeNames: { '#pk': pkName },
    ExpressionAttributeValues: { ':pk': r.pk, ...(r.skPrefix ? { ':prefix': r.skPrefix } : {}) },
    Limit: CHUNK,
    ...(cursor && !cursor.startsWith(SETTLE_CURSOR) ? { ExclusiveStartKey: JSON.parse(cursor) } : {}),
  };
  const res = await db.send(new QueryCommand(input));
  return { items: (res.Items ?? []) as Item[], next: res.LastEvaluatedKey };
}

const ignoreConditionFailed = (err: unknown) => { if (!(err instanceof ConditionalCheckFailedException)) throw err; };


/** A sweep is done: it leaves `jobsLeft`; the one that empties it starts the final job. */
async function sweepDone(sweep: Sweep, params: AccountParams): Promise<void> {
  let left: Set<string> | undefined;
  try {
    const res = await db.send(new UpdateCommand({
      TableName: TABLE,
      Key: keys.gone(params.userId),
      UpdateExpression: 'DELETE jobsLeft :kind',
      ConditionExpression: 'attribute_exists(PK) AND reason = :deleted',
      ExpressionAttributeValues: { ':kind': new Set([sweep.kind]), ':deleted': 'deleted' },
      ReturnValues: 'ALL_NEW',
    }));
    left = res.Attributes?.jobsLeft as Set<string> | undefined;
  } catch (err) {
    ignoreConditionFailed(err); // the account's cleanup has ended already (a replayed step)
    return;
  }
  const next = left?.size ? SWEEPS.filter((s) => s.after === sweep.kind) : [FINAL];
  for (const s of next) {
    await db.send(new PutCommand({
      TableName: TABLE, Item: jobItem(s.kind, params, new Date().toISOString()), ConditionExpression: 'attribute_not_exists(PK)',
    })).catch(ignoreConditionFailed);
  }
}

/**
 * The end: the user item and the GONE item, in one transaction (only while it is a deletion);
 * then the shared most-followed list, when it names the account (lib/graph/popular.ts). A
 * retry finds the transaction done and still takes the list's step.
 */
async function finish(params: AccountParams): Promise<void> {
  try {
    await transact([
      { op: { Delete: { TableName: TABLE, Key: keys.user(params.userId), ConditionExpression: 'attribute_exists(deletedAt)' } } },
      { op: { Delete: { TableName: TABLE, Key: keys.gone(params.userId), ConditionExpression: 'reason = :deleted', ExpressionAttributeValues: { ':deleted': 'deleted' } } } },
      goneChanged(),
    ]);
    logger.info('account_cleanup_done', { userId: params.userId });
  } catch (err) {
    if (!(err instanceof ConditionFailed)) throw err; // done already
  }
  await forgetInTop(params.userId);
}

function job(sweep: Sweep, last: (params: AccountParams) => Promise<void>): JobKind<AccountParams> {
  return {
    kind: jobKind(sweep.kind),
    async step(params, cursor) {
      const started = Date.now();
      let at = cursor ?? '';
      let removed = 0;
      // Pages until the step's bounds: the change stream delivers the next step behind every
      // change this one made, so a step of one page would wait on its own changes each time.
      for (;;) {
        const { items, next } = await page(sweep, params.userId, at);
        if (items.length) await sweep.remove(items, params);
        removed += items.length;
        if (!next) {
          // A request of the account that began before the deletion can still commit a write
          // after this read (REQUEST_MAX_MS), and an index shows a write of the last moments
          // later than the table does: a like, comment or upload could be missing from a read
          // made at once, and left behind for good with its counter (contract section 13: no
          // item of the account remains). So a sweep that reached its end within its margin
          // reads its range again from the start (what it removed is gone; only late items are
          // left), as a deleted post's cleanup waits (lib/cleanup/worker.ts). The index's part
          // is a margin, not a proof: DynamoDB bounds no index's lag.
          const left = settleLeft(sweep, params);
          if (left > 0) {
            await pause(Math.min(left, SETTLE_PAUSE_MS));
            logger.info('account_cleanup_step', { userId: params.userId, sweep: sweep.kind, items: removed, ms: Date.now() - started, more: true, settling: true });
            // A cursor of its own each pass: the job's write is conditioned on the cursor a step
            // started from, so a pass delivered twice moves the job once (lib/events/jobs.ts).
            return `${SETTLE_CURSOR}${Date.now()}`;
          }
          break;
        }
        at = JSON.stringify(next);
        if (removed >= STEP_MAX_ITEMS || Date.now() - started >= STEP_BUDGET_MS) {
          logger.info('account_cleanup_step', { userId: params.userId, sweep: sweep.kind, items: removed, ms: Date.now() - started, more: true });
          return at;
        }
      }
      logger.info('account_cleanup_step', { userId: params.userId, sweep: sweep.kind, items: removed, ms: Date.now() - started, more: false });
      await last(params);
      return undefined;
    },
  };
}

export const accountJobs: JobKind<AccountParams>[] = [
  ...SWEEPS.map((s) => job(s, (p) => sweepDone(s, p))),
  job(FINAL, finish),
];
