// Structured logging: one JSON line per event, always with the trace id of the request
// being served, so CloudWatch Logs Insights can join function logs to trace records.
// The trace id is kept per invocation in an AsyncLocalStorage, not in a module variable:
// in AWS one instance serves one invocation at a time, but `npm start` runs every function
// in one process (serverless-offline's in-process runner, serverless.yml) and the tests call
// handlers concurrently, so two invocations of one bundle interleave there.
import { AsyncLocalStorage } from 'node:async_hooks';

interface LogScope {
  traceId?: string;
}

const scopes = new AsyncLocalStorage<LogScope>();

/** Runs fn with a log scope of its own: the trace id set inside it stays with its lines. */
export function withLogScope<T>(fn: () => T): T {
  return scopes.run({}, fn);
}

/** Sets the trace id of the current scope's lines (no scope: nothing to attach it to). */
export function setLogTrace(traceId: string | undefined): void {
  const scope = scopes.getStore();
  if (scope) scope.traceId = traceId;
}

/**
 * The X-Ray trace of the invocation being served (Lambda sets _X_AMZN_TRACE_ID per invocation
 * when tracing is active; absent locally): joins our lines and our trace id to X-Ray.
 */
const xrayTraceId = () => /Root=([^;]+)/.exec(process.env._X_AMZN_TRACE_ID ?? '')?.[1];

function write(level: 'INFO' | 'WARN' | 'ERROR', event: string, fields: Record<string, unknown>): void {
  const line = JSON.stringify({ level, event, traceId: scopes.getStore()?.traceId, xrayTraceId: xrayTraceId(), time: new Date().toISOString(), ...fields });
  (level === 'ERROR' ? process.stderr : process.stdout).write(`${line}\n`);
}

export const logger = {
  info: (event: string, fields: Record<string, unknown> = {}) => write('INFO', event, fields),
  warn: (event: string, fields: Record<string, unknown> = {}) => write('WARN', event, fields),
  error: (event: string, fields: Record<string, unknown> = {}) => write('ERROR', event, fields),
};
