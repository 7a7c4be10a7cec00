// Structured logging: one JSON line per event, always with the trace id of the request
// being served, so CloudWatch Logs Insights can join function logs to trace records.
// The trace id is kept per invocation. In AWS one instance serves one invocation at a time,
// so an invocation that starts while no other holds it keeps its scope in a module
// variable. Where invocations interleave (`npm start` runs every function in one process,
// serverless-offline's in-process runner, serverless.yml; the tests call handlers
// concurrently), each one that starts while the lone one is in flight runs in an
// AsyncLocalStorage of its own. Why not always the AsyncLocalStorage: in Node 22 its first
// run turns on a hook on every promise the process makes, and the SDK makes hundreds per
// request. A lone cold invocation's first answer paid 5 to 17 ms for them
// (docs/PERFORMANCE.md, "The log scope, the SDK's logger and the GONE copy"). A line written
// after its invocation ended would take the scope of the next lone one: nothing of an
// invocation runs on after its answer (lib/auth/caller.ts settled).
import { AsyncLocalStorage } from 'node:async_hooks';

interface LogScope {
  traceId?: string;
  /** Whether this invocation's sampled lines are written (sampled(), drawn at its first). */
  sampled?: boolean;
}

const scopes = new AsyncLocalStorage<LogScope>();
/** The scope of the invocation that started while no other held this one; only ever one. */
let lone: LogScope | undefined;

/** The scope of the code running now: its AsyncLocalStorage one, else the lone invocation's. */
const current = (): LogScope | undefined => scopes.getStore() ?? lone;

/**
 * Runs fn with a log scope of its own: the trace id set inside it stays with its lines. An
 * invocation that starts while no lone one is in flight is the lone one until it ends; one
 * that starts beside it runs in the AsyncLocalStorage, whose store its own code sees first.
 * (An AsyncLocalStorage invocation never reads the lone scope, so a lone one may start
 * while it is still in flight.)
 */
export async function withLogScope<T>(fn: () => Promise<T>): Promise<T> {
  const scope: LogScope = {};
  lone ??= scope;
  try {
    return await (lone === scope ? fn() : scopes.run(scope, fn));
  } finally {
    if (lone === scope) lone = undefined;
  }
}

/** Sets the trace id of the current scope's lines (no scope: nothing to attach it to). */
export function setLogTrace(traceId: string | undefined): void {
  const scope = current();
  if (scope) scope.traceId = traceId;
}

/**
 * Whether the current invocation writes its sampled lines: drawn once per invocation with
 * probability `rate`, so a sampled request's lines are all there; outside any invocation, per
 * line.
 */
export function sampled(rate: number): boolean {
  const scope = current();
  if (!scope) return Math.random() < rate;
  return (scope.sampled ??= Math.random() < rate);
}

/**
 * The X-Ray trace of the invocation being served (Lambda sets _X_AMZN_TRACE_ID per invocation
 * when tracing is active; absent locally): joins our lines and our trace id to X-Ray.
 */
const xrayTraceId = () => /Root=([^;]+)/.exec(process.env._X_AMZN_TRACE_ID ?? '')?.[1];

function write(level: 'INFO' | 'WARN' | 'ERROR', event: string, fields: Record<string, unknown>): void {
  const line = JSON.stringify({ level, event, traceId: current()?.traceId, xrayTraceId: xrayTraceId(), time: new Date().toISOString(), ...fields });
  (level === 'ERROR' ? process.stderr : process.stdout).write(`${line}\n`);
}

export const logger = {
  info: (event: string, fields: Record<string, unknown> = {}) => write('INFO', event, fields),
  warn: (event: string, fields: Record<string, unknown> = {}) => write('WARN', event, fields),
  error: (event: string, fields: Record<string, unknown> = {}) => write('ERROR', event, fields),
};
