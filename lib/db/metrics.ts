// DynamoDB request metrics for the benchmark (scripts/bench.mjs): every command of the
// module-scope client is recorded with its input as sent, its timing and the capacity it
// consumed. Installed only when APERTURE_DB_METRICS=1, so a deployed function pays nothing.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

export interface DbRecord {
  /** Low-level command name, e.g. GetItemCommand. */
  command: string;
  /** The marshalled input, as it went on the wire (replayable with the low-level client). */
  input: Record<string, unknown>;
  /** performance.now() when the request left and when its answer was parsed. */
  start: number;
  end: number;
  consumed?: unknown;
  /** Items in the answer (BatchGet: over all tables), to price the keys that found none. */
  returned?: number;
  error?: string;
}

/** Where records go: a global, so every bundle loaded into one process reports to one place. */
export const METRICS_SINK = Symbol.for('aperture.dbMetrics');

function sink(): DbRecord[] {
  const g = globalThis as { [METRICS_SINK]?: DbRecord[] };
  return (g[METRICS_SINK] ??= []);
}

/**
 * Before the document client marshals: ask every command for its consumed capacity. One
 * function for both users below (each installs its own, under its own name: both may be on).
 */
function askCapacity(client: DynamoDBClient, name: string): void {
  client.middlewareStack.add((next) => async (args) => {
    const input = args.input as Record<string, unknown>;
    return next({ ...args, input: { ...input, ReturnConsumedCapacity: 'TOTAL' } });
  }, { step: 'initialize', name, priority: 'high' });
}

export function instrument(client: DynamoDBClient): void {
  askCapacity(client, 'apertureConsumedCapacity');
  // After serialization: one record per command (retries included in its time).
  client.middlewareStack.add((next, context) => async (args) => {
    const record: DbRecord = {
      command: String(context.commandName ?? 'unknown'),
      input: args.input as Record<string, unknown>,
      start: performance.now(),
      end: 0,
    };
    try {
      const res = await next(args);
      const out = res.output as { ConsumedCapacity?: unknown; Responses?: Record<string, unknown[]>; Items?: unknown[]; Item?: unknown };
      record.consumed = out.ConsumedCapacity;
      record.returned = out.Responses ? Object.values(out.Responses).reduce((n, items) => n + items.length, 0) : out.Items?.length ?? (out.Item ? 1 : 0);
      return res;
    } catch (err) {
      record.error = (err as Error).name;
      throw err;
    } finally {
      record.end = performance.now();
      sink().push(record);
    }
  }, { step: 'build', name: 'apertureDbMetrics', priority: 'low' });
}

/**
 * One log line per DynamoDB call (LOG_DB_CALLS=1, every deployed stage): command, table, index,
 * milliseconds, consumed capacity and the error, if any, under the trace id of the request
 * being served (lib/log.ts). HTTP APIs carry no X-Ray and the SDK's X-Ray instrumentation would
 * cost every bundle 124 KB: these lines are how one request is followed from the API's access
 * log (its requestId) and its X-Trace-Id to every DynamoDB call it made (docs/OPERATIONS.md,
 * "Tracing").
 */
export function logCalls(client: DynamoDBClient, log: (event: string, fields: Record<string, unknown>) => void): void {
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
      log('db_call', {
        command: String(context.commandName ?? 'unknown'),
        table: input.TableName, index: input.IndexName,
        ms: Math.round((performance.now() - start) * 10) / 10,
        consumed, ...(error ? { error } : {}),
      });
    }
  }, { step: 'build', name: 'apertureLogCalls', priority: 'low' });
}
