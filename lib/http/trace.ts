// Trace context of a request (contract section 9): X-Trace-Id, else the trace id of a
// W3C traceparent, else a new id; scenario, step and simulated time from their headers.
import { newId } from '../ids';
import type { ErrorDetail } from '../errors';
import type { TraceContext } from '../audit/context';

export type { TraceContext } from '../audit/context';

export const TOKEN_PATTERN = '^[A-Za-z0-9._:-]{1,128}$';
/** W3C traceparent: version, trace id (not all zeros), parent id, flags; hex in any case, surrounding spaces ignored. */
export const TRACEPARENT_PATTERN = '^\\s*[0-9A-Fa-f]{2}-(?!0{32})([0-9A-Fa-f]{32})-[0-9A-Fa-f]{16}-[0-9A-Fa-f]{2}\\s*$';
/**
 * X-Sim-Timestamp: a decimal number of at most 15 digits before the point and 6 after, with
 * an optional sign: every such number is finite, exact enough, and storable in a DynamoDB
 * number attribute as the SDK writes JS numbers (|n| <= 2^53 - 1, no magnitude below 1e-6).
 * An exponent ("1e3") is refused: 1e300 is finite too, but no table can store it.
 */
export const SIM_TIMESTAMP_PATTERN = '^[+-]?(?:[0-9]{1,15}(?:\\.[0-9]{0,6})?|\\.[0-9]{1,6})$';
const TOKEN = new RegExp(TOKEN_PATTERN);
const TRACEPARENT = new RegExp(TRACEPARENT_PATTERN);
const SIM_TIMESTAMP = new RegExp(SIM_TIMESTAMP_PATTERN);

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
  // A malformed traceparent is refused also beside an X-Trace-Id (the document states one rule for it).
  if (headers.traceparent !== undefined) {
    const m = TRACEPARENT.exec(headers.traceparent);
    if (!m) problems.push({ path: 'traceparent', message: 'must be a W3C traceparent header' });
    else if (!traceId && headers['x-trace-id'] === undefined) traceId = m[1]!.toLowerCase();
  }
  let simTimestamp = Date.now();
  const sim = headers['x-sim-timestamp'];
  if (sim !== undefined) {
    const n = SIM_TIMESTAMP.test(sim) ? Number(sim) : Number.NaN;
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
