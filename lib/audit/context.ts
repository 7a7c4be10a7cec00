// The trace context a change is recorded under (contract section 9). The domain owns it:
// lib/http reads it from a request's headers, and a stream reaction that writes trace
// records carries it over from the change that caused it.
export interface TraceContext {
  traceId: string;
  scenarioId: string;
  stepId: string;
  simTimestamp: number;
}
