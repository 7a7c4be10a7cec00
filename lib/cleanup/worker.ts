// Drains what a deleted post or comment left behind (lib/cleanup/jobs.ts): each key range
// is read in Query pages and deleted with BatchWriteItem, page after page, so the work of
// one page is bounded however many children there are. A COMMENT found in a range first
// has its own ranges drained (its likes, its replies and theirs) and is deleted after
// them, so an interrupted run leaves nothing unreachable: the next run finds the comment
// again and resumes. The job item is deleted last; while it exists the job is unfinished.
//
// Children are found through GSI1/GSI2, which lag the table. Nothing new can hang on a
// deleted record (every child write checks its parent inside its transaction), so the set
// is fixed once the deletion has committed; the first Query waits INDEX_SETTLE_MS after the
// job was first taken up, which is after that commit (the trigger fires once the deleting
// transaction has returned; the job's createdAt is older: it is stamped before the
// transaction's conflict retries). DynamoDB bounds no index's lag, so this is a margin, not a
// proof: a child an index shows later still is left behind, unreachable (docs/ARCHITECTURE.md).
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import { batchWrite, type Key } from '../db/batch';
import * as keys from '../keys';
import { INDEX } from '../keys';
import { commentRanges, rangesOf, type CleanupKind, type DrainRange } from './jobs';
import { removeMedia } from '../media/use';

export interface DrainOptions {
  /** Asked before every page: false stops the run (e.g. the Lambda's time is nearly up). */
  keepGoing: () => boolean;
  /** Items per Query page (1,000 small items stay well under the 1 MB page). */
  pageSize?: number;
  /** How long after the job's first run the indexes are trusted to hold every child (default INDEX_SETTLE_MS). */
  settleMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Index propagation is normally well under a second; this leaves a wide margin. The first run
 * of a job waits it out before its first Query; later runs (re-invocations, restarts) are past it.
 */
export const INDEX_SETTLE_MS = 5_000;
const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface DrainResult {
  done: boolean;
  deleted: number;
}

const COMMENT_PREFIX = 'COMMENT#';
const WRITE_PARALLELISM = 8;

const deleteAll = (items: Key[]) => batchWrite(items.map((Key) => ({ DeleteRequest: { Key } })), { parallel: WRITE_PARALLELISM });

const isComment = (item: Record<string, unknown>) => item.SK === 'COMMENT' && String(item.PK).startsWith(COMMENT_PREFIX);

class Drainer {
  deleted = 0;
  constructor(private readonly opts: DrainOptions) {}

  /** True when the range is empty (as far as this run can see), false when stopped. */
  async drain(range: DrainRange): Promise<boolean> {
    let start: Record<string, unknown> | undefined;
    do {
      if (!this.opts.keepGoing()) return false;
      const res = await db.send(new QueryCommand({
        TableName: TABLE,
        ...(range.index ? { IndexName: INDEX[range.index] } : { ConsistentRead: true }),
        KeyConditionExpression: range.skPrefix ? '#pk = :pk AND begins_with(#sk, :prefix)' : '#pk = :pk',
        ExpressionAttributeNames: {
          '#pk': range.index ? `${range.index}PK` : 'PK',
          ...(range.skPrefix ? { '#sk': 'SK' } : {}),
        },
        ExpressionAttributeValues: { ':pk': range.pk, ...(range.skPrefix ? { ':prefix': range.skPrefix } : {}) },
        ProjectionExpression: range.index ? 'PK, SK, GSI1PK, GSI1SK, GSI2PK, GSI2SK' : 'PK, SK',
        Limit: this.opts.pageSize ?? 1000,
        ExclusiveStartKey: start,
      }));
      const items = res.Items ?? [];
      for (const item of items.filter(isComment)) {
        const commentId = String(item.PK).slice(COMMENT_PREFIX.length);
        for (const r of commentRanges(commentId)) if (!(await this.drain(r))) return false;
      }
      // A comment goes with its recent likers item (lib/posts/recent-likers.ts), a known key.
      const likers = items.filter(isComment).map((i) => keys.commentLikers(String(i.PK).slice(COMMENT_PREFIX.length)));
      await deleteAll([...items.map((i) => ({ PK: String(i.PK), SK: String(i.SK) })), ...likers]);
      this.deleted += items.length;
      start = res.LastEvaluatedKey;
    } while (start);
    return true;
  }
}

/**
 * Marks the job as taken up now (its GSI1 position, which the sweeper reads) and returns
 * when it was first taken up; undefined when there is no such job any more (finished by an
 * earlier run).
 */
async function touchJob(kind: CleanupKind, id: string): Promise<{ firstRun: number; media: string[] } | undefined> {
  const now = new Date().toISOString();
  const index = keys.cleanupJobIndex(kind, id, now);
  try {
    const res = await db.send(new UpdateCommand({
      TableName: TABLE,
      Key: keys.cleanupJob(kind, id),
      ConditionExpression: 'attribute_exists(PK)',
      // Both index keys: a job written before the index existed joins it at its first run.
      UpdateExpression: 'SET GSI1PK = :pk, GSI1SK = :sk, touchedAt = :now, firstRunAt = if_not_exists(firstRunAt, :now)',
      ExpressionAttributeValues: { ':pk': index.GSI1PK, ':sk': index.GSI1SK, ':now': now },
      ReturnValues: 'ALL_NEW',
    }));
    return { firstRun: Date.parse(String(res.Attributes?.firstRunAt)), media: (res.Attributes?.media as string[] | undefined) ?? [] };
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return undefined;
    throw err;
  }
}

/** Runs a cleanup job until it is finished or keepGoing() says stop. Safe to run again, and concurrently. */
export async function runCleanup(kind: CleanupKind, id: string, opts: DrainOptions): Promise<DrainResult> {
  const job = await touchJob(kind, id);
  if (!job) return { done: true, deleted: 0 };
  const wait = job.firstRun + (opts.settleMs ?? INDEX_SETTLE_MS) - Date.now();
  if (wait > 0) {
    if (!opts.keepGoing()) return { done: false, deleted: 0 };
    await (opts.sleep ?? pause)(wait);
  }
  const drainer = new Drainer(opts);
  for (const range of rangesOf(kind, id)) {
    if (!(await drainer.drain(range))) return { done: false, deleted: drainer.deleted };
  }
  // The post's uploaded media (their images in the bucket, then their items); safe to repeat.
  if (job.media.length) {
    if (!opts.keepGoing()) return { done: false, deleted: drainer.deleted };
    await removeMedia(job.media);
  }
  // The record's recent likers item (lib/posts/recent-likers.ts): one known key, not a range to page.
  await db.send(new DeleteCommand({ TableName: TABLE, Key: kind === 'post' ? keys.postLikers(id) : keys.commentLikers(id) }));
  await db.send(new DeleteCommand({ TableName: TABLE, Key: keys.cleanupJob(kind, id) }));
  return { done: true, deleted: drainer.deleted };
}
