// Finds cleanup jobs no worker has taken up for a while: their trigger was refused or
// failed (the deletion itself had already happened), or a worker chain died. GSI1
// `CLEANUPS` orders jobs by the last time a worker or the sweeper touched them
// (lib/cleanup/worker.ts), so the stalled ones are the start of that partition: one Query,
// never a Scan.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import * as keys from '../keys';
import { INDEX } from '../keys';
import type { CleanupKind } from './jobs';

/** A job untouched this long is stalled: a live worker touches its job at every (re)invocation, well within it. */
export const STALLED_AFTER_MS = 15 * 60_000;
/** Jobs restarted per sweep; the rest wait for the next one (oldest first). */
export const SWEEP_LIMIT = 100;

export interface StalledJob {
  kind: CleanupKind;
  id: string;
  touchedAt: string;
  /** Earlier restarts by the sweeper: a job that keeps coming back needs a look (docs/OPERATIONS.md). */
  restarts: number;
  /** Its GSI1 sort key as read, for markRestarted's condition. */
  sortKey: string;
}

/** The oldest jobs last touched before `before`, at most `limit`. */
export async function stalledJobs(before: Date, limit = SWEEP_LIMIT): Promise<StalledJob[]> {
  const res = await db.send(new QueryCommand({
    TableName: TABLE,
    IndexName: INDEX.GSI1,
    KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK < :before',
    ExpressionAttributeValues: { ':pk': keys.cleanups(), ':before': before.toISOString() },
    ProjectionExpression: 'kind, targetId, GSI1SK, restarts',
    Limit: limit,
  }));
  return (res.Items ?? []).map((item) => ({
    kind: item.kind as CleanupKind,
    id: String(item.targetId),
    touchedAt: String(item.GSI1SK).split('#')[0]!,
    restarts: Number(item.restarts ?? 0),
    sortKey: String(item.GSI1SK),
  }));
}

/**
 * Moves a restarted job to the end of the queue and counts the restart, unless a worker has
 * touched it since it was read. A worker that dies before touching its job (a bad event, a
 * dropped invocation) then costs its job one restart per period, not the head of the queue.
 */
export async function markRestarted(job: StalledJob): Promise<void> {
  const now = new Date().toISOString();
  try {
    await db.send(new UpdateCommand({
      TableName: TABLE,
      Key: keys.cleanupJob(job.kind, job.id),
      ConditionExpression: 'GSI1SK = :read',
      UpdateExpression: 'SET GSI1SK = :sk, touchedAt = :now ADD restarts :one',
      ExpressionAttributeValues: { ':read': job.sortKey, ':sk': keys.cleanupJobIndex(job.kind, job.id, now).GSI1SK, ':now': now, ':one': 1 },
    }));
  } catch (err) {
    // Touched by a worker meanwhile, or finished and gone: nothing to mark.
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
  }
}
