import { readTrace } from '../../lib/http/trace';

describe('readTrace', () => {
  it('takes X-Trace-Id, scenario, step and simulated time from the headers', () => {
    const { trace, problems } = readTrace({ 'x-trace-id': 'abc:1.2_3-4', 'x-scenario-id': 'sc', 'x-step-id': 'st', 'x-sim-timestamp': '-12.5' });
    expect(problems).toEqual([]);
    expect(trace).toEqual({ traceId: 'abc:1.2_3-4', scenarioId: 'sc', stepId: 'st', simTimestamp: -12.5 });
  });

  it('falls back to the trace id of a W3C traceparent, then to a new id', () => {
    const tp = readTrace({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' });
    expect(tp.trace.traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    const fresh = readTrace({});
    expect(fresh.trace.traceId).toMatch(/^[0-9A-Z]{26}$/);
    expect(fresh.trace.scenarioId).toBe('');
    expect(Math.abs(fresh.trace.simTimestamp - Date.now())).toBeLessThan(5000);
  });

  it('refuses a malformed traceparent also beside an X-Trace-Id, and takes one in upper case', () => {
    expect(readTrace({ 'x-trace-id': 'mine', traceparent: 'zz' }).problems.map((p) => p.path)).toEqual(['traceparent']);
    expect(readTrace({ 'x-trace-id': 'mine', traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' }).trace.traceId).toBe('mine');
    expect(readTrace({ traceparent: ' 00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01 ' }).trace.traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  });

  it('takes the largest and smallest X-Sim-Timestamp it documents', () => {
    expect(readTrace({ 'x-sim-timestamp': '999999999999999.999999' }).trace.simTimestamp).toBe(999999999999999.999999);
    expect(readTrace({ 'x-sim-timestamp': '-.000001' }).trace.simTimestamp).toBe(-0.000001);
  });

  it.each([
    ['x-trace-id', 'has space'],
    ['x-trace-id', 'x'.repeat(129)],
    ['x-trace-id', ''],
    ['x-scenario-id', 'a/b'],
    ['x-step-id', 'ä'],
    ['x-sim-timestamp', 'soon'],
    ['x-sim-timestamp', 'Infinity'],
    ['x-sim-timestamp', ''],
    ['traceparent', 'not-a-traceparent'],
    ['traceparent', '00-00000000000000000000000000000000-00f067aa0ba902b7-01'],
    // Finite, but beyond what a table stores: the header takes plain decimals of bounded size.
    ['x-sim-timestamp', '1e300'],
    ['x-sim-timestamp', '9'.repeat(16)],
    ['x-sim-timestamp', '0.0000001'],
    ['x-sim-timestamp', '0x10'],
  ])('reports a malformed %s', (header, value) => {
    const { trace, problems } = readTrace({ [header]: value });
    expect(problems.map((p) => p.path)).toEqual([header]);
    expect(trace.traceId).toBeTruthy();
  });
});
