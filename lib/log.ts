// Structured logging: one JSON line per event, always with the trace id of the request
// being served, so CloudWatch Logs Insights can join function logs to trace records.
let currentTraceId: string | undefined;

export function setLogTrace(traceId: string | undefined): void {
  currentTraceId = traceId;
}

/**
 * The X-Ray trace of the invocation being served (Lambda sets _X_AMZN_TRACE_ID per invocation
 * when tracing is active; absent locally): joins our lines and our trace id to X-Ray.
 */
const xrayTraceId = () => /Root=([^;]+)/.exec(process.env._X_AMZN_TRACE_ID ?? '')?.[1];

function write(level: 'INFO' | 'WARN' | 'ERROR', event: string, fields: Record<string, unknown>): void {
  const line = JSON.stringify({ level, event, traceId: currentTraceId, xrayTraceId: xrayTraceId(), time: new Date().toISOString(), ...fields });
  (level === 'ERROR' ? process.stderr : process.stdout).write(`${line}\n`);
}

export const logger = {
  info: (event: string, fields: Record<string, unknown> = {}) => write('INFO', event, fields),
  warn: (event: string, fields: Record<string, unknown> = {}) => write('WARN', event, fields),
  error: (event: string, fields: Record<string, unknown> = {}) => write('ERROR', event, fields),
};
