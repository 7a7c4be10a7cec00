import * as z from 'zod/mini';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { http } from '../../lib/http';
import { db, TABLE } from '../../lib/db/client';
import * as keys from '../../lib/keys';
import { NotFound } from '../../lib/errors';
import { fromLogItem, type LogRecord } from '../../lib/audit/records';

export const params = z.strictObject({
  traceId: z.string().check(z.regex(/^[A-Za-z0-9._:-]{1,128}$/, 'must be 1-128 characters of A-Z a-z 0-9 . _ : -')),
});

/** Scope that lets a token read every trace, not only the caller's own records. */
export const LOGS_READ = 'logs:read';

/**
 * The most records one answer holds: the first ones in order, `truncated: true` telling that
 * more exist. Anyone can write records under any trace id (refused ones, each at most 4 KiB of
 * body), so a whole trace has no bound; this keeps an answer well under Lambda's 6 MB.
 */
export const TRACE_ANSWER_MAX = 1000;

/** simTimestamp, then writing order (the record's ULID): the contract's order of a trace. */
const inOrder = (a: LogRecord, b: LogRecord) => a.simTimestamp - b.simTimestamp || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);

/**
 * The caller's own records are its range of the trace's partition (lib/keys.ts log): a Query
 * that reads nothing another actor wrote. A logs:read token reads the whole partition. Either
 * is read whole and put in the contract's order here (the key holds the writing order alone).
 */
async function readTrace(traceId: string, actorId: string | undefined): Promise<LogRecord[]> {
  const logs: LogRecord[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db.send(new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: actorId ? 'PK = :pk AND begins_with(SK, :actor)' : 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.trace(traceId), ...(actorId ? { ':actor': keys.logsBy(actorId) } : {}) },
      ConsistentRead: true,
      ExclusiveStartKey: start,
    }));
    logs.push(...(res.Items ?? []).map(fromLogItem));
    start = res.LastEvaluatedKey;
  } while (start);
  return logs.sort(inOrder);
}

// Trace records embed no user-id arrays: nothing to scrub, so the block lists are not read.
export const handler = http({ params, scrubHidden: false }, async ({ params, caller }) => {
  const all = await readTrace(params.traceId, caller.scopes.has(LOGS_READ) ? undefined : caller.userId);
  if (all.length === 0) throw new NotFound('trace');
  const logs = all.slice(0, TRACE_ANSWER_MAX);
  const truncated = all.length > TRACE_ANSWER_MAX;
  return {
    body: {
      message: 'Trace logs retrieved successfully',
      data: { traceId: params.traceId, count: logs.length, ...(truncated ? { truncated } : {}), logs },
    },
  };
});
