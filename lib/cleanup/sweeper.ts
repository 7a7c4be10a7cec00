// Finds cleanup jobs no worker has taken up for a while: their trigger was refused or
// failed (the deletion itself had already happened), or a worker chain died. GSI1
// `CLEANUPS` orders jobs by the last time a worker touched them (lib/cleanup/worker.ts),
// so the stalled ones are the start of that partition: one Query, never a Scan.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import { INDEX, keys } from '../keys';
import type { CleanupKind } from './jobs';

/** A job untouched this long is stalled: a live worker touches its job at every (re)invocation, well within it. */
export const STALLED_AFTER_MS = 15 * 60_000;
/** Jobs restarted per sweep; the rest wait for the next one (oldest first). */
export const SWEEP_LIMIT = 100;

export interface StalledJob {
  kind: CleanupKind;
  id: string;
  touchedAt: string;
}

/** The oldest jobs last touched before `before`, at most `limit`. */
export async function stalledJobs(before: Date, limit = SWEEP_LIMIT): Promise<StalledJob[]> {
  const res = await db.send(new QueryCommand({
    TableName: TABLE,
    IndexName: INDEX.GSI1,
    KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK < :before',
    ExpressionAttributeValues: { ':pk': keys.cleanups(), ':before': before.toISOString() },
    ProjectionExpression: 'kind, targetId, GSI1SK',
    Limit: limit,
  }));
  return (res.Items ?? []).map((item) => ({
    kind: item.kind as CleanupKind,
    id: String(item.targetId),
    touchedAt: String(item.GSI1SK).split('#')[0]!,
  }));
}
