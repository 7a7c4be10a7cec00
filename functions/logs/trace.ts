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

// Trace records embed no user-id arrays: nothing to scrub, so the block lists are not read.
export const handler = http({ params, scrubHidden: false }, async ({ params, caller }) => {
  const seeAll = caller.scopes.has(LOGS_READ);
  const logs: LogRecord[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db.send(new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.trace(params.traceId), ...(seeAll ? {} : { ':me': caller.userId }) },
      ...(seeAll ? {} : { FilterExpression: 'actorId = :me' }),
      ConsistentRead: true,
      ExclusiveStartKey: start,
    }));
    logs.push(...(res.Items ?? []).map(fromLogItem));
    start = res.LastEvaluatedKey;
  } while (start);
  if (logs.length === 0) throw new NotFound('trace');
  return {
    body: { message: 'Trace logs retrieved successfully', data: { traceId: params.traceId, count: logs.length, logs } },
  };
});
