// Trace context of a request (contract section 9): X-Trace-Id, else the trace id of a
// W3C traceparent, else a new id; scenario, step and simulated time from their headers.
import { newId } from '../ids';
import type { ErrorDetail } from '../errors';
import type { TraceContext } from '../audit/context';

export type { TraceContext } from '../audit/context';

const TOKEN = /^[A-Za-z0-9._:-]{1,128}$/;
const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** Never throws: a malformed header still yields a usable trace id for the error answer. */
export function readTrace(headers: Record<string, string | undefined>): { trace: TraceContext; problems: ErrorDetail[] } {
  const problems: ErrorDetail[] = [];
  const token = (name: string): string | undefined => {
    const v = headers[name];
    if (v === undefined) return undefined;
    if (TOKEN.test(v)) return v;
    problems.push({ path: name, message: 'must be 1-128 characters of A-Z a-z 0-9 . _ : -' });
    return undefined;
  };
  let traceId = token('x-trace-id');
  if (!traceId && headers['x-trace-id'] === undefined && headers.traceparent !== undefined) {
    const m = TRACEPARENT.exec(headers.traceparent.trim().toLowerCase());
    if (m && !/^0+$/.test(m[1]!)) traceId = m[1];
    else problems.push({ path: 'traceparent', message: 'must be a W3C traceparent header' });
  }
  let simTimestamp = Date.now();
  const sim = headers['x-sim-timestamp'];
  if (sim !== undefined) {
    const n = sim.trim() === '' ? Number.NaN : Number(sim);
    if (Number.isFinite(n)) simTimestamp = n;
    else problems.push({ path: 'x-sim-timestamp', message: 'must be a finite number' });
  }
  return {
    trace: {
      traceId: traceId ?? newId(),
      scenarioId: token('x-scenario-id') ?? '',
      stepId: token('x-step-id') ?? '',
      simTimestamp,
    },
    problems,
  };
}
