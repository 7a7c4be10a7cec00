// One log line per DynamoDB call, with the capacity it consumed (LOG_DB_CALLS, below). The
// benchmark's recorder of every request is not here: scripts/bench/measure.mjs installs it
// from outside the bundle (lib/db/client.ts calls it back), so no deployed function carries it.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { sampled } from '../log';

/** Before the document client marshals: ask every command for its consumed capacity. */
function askCapacity(client: DynamoDBClient, name: string): void {
  client.middlewareStack.add((next) => async (args) => {
    const input = args.input as Record<string, unknown>;
    return next({ ...args, input: { ...input, ReturnConsumedCapacity: 'TOTAL' } });
  }, { step: 'initialize', name, priority: 'high' });
}

/**
 * One log line per DynamoDB call of a sampled request (LOG_DB_CALLS, the share of requests;
 * 0.05 on deployed stages), and of every failed call: command, table, index, milliseconds,
 * consumed capacity and the error, if any, under the trace id of the request being served
 * (lib/log.ts). HTTP APIs carry no X-Ray and the SDK's X-Ray instrumentation would cost every
 * bundle 124 KB: these lines are how one request is followed from the API's access log (its
 * requestId) and its X-Trace-Id to every DynamoDB call it made (docs/OPERATIONS.md,
 * "Tracing"). Every request's lines were a third of the log bill at 1.0 (docs/PERFORMANCE.md,
 * "What it costs"): a sampled request keeps all of its lines, so one request can still be
 * followed whole, and a failure is never left out.
 */
export function logCalls(client: DynamoDBClient, log: (event: string, fields: Record<string, unknown>) => void, rate = 1): void {
  askCapacity(client, 'apertureLogCapacity');
  client.middlewareStack.add((next, context) => async (args) => {
    const input = args.input as { TableName?: string; IndexName?: string };
    const start = performance.now();
    let error: string | undefined;
    let consumed: unknown;
    try {
      const res = await next(args);
      consumed = (res.output as { ConsumedCapacity?: unknown }).ConsumedCapacity;
      return res;
    } catch (err) {
      error = (err as Error).name;
      throw err;
    } finally {
      if (error || sampled(rate)) log('db_call', {
        command: String(context.commandName ?? 'unknown'),
        table: input.TableName, index: input.IndexName,
        ms: Math.round((performance.now() - start) * 10) / 10,
        consumed, ...(error ? { error } : {}),
      });
    }
  }, { step: 'build', name: 'apertureLogCalls', priority: 'low' });
}
