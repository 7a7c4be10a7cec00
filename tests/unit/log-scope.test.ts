// Two invocations of one handler that interleave (npm start's in-process runner, the tests'
// concurrent calls) each log under their own trace id.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from 'aws-lambda';
import { http } from '../../lib/http';
import { logger } from '../../lib/log';
import { apiEvent } from '../support/invoke';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

const handler = http({ auth: false }, async (req) => {
  logger.info('step_one', { who: req.headers['x-who'] });
  await tick();
  logger.info('step_two', { who: req.headers['x-who'] });
  return { body: {} };
});

it('keeps each interleaved invocation\'s log lines under its own trace id', async () => {
  const lines: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  let answers: unknown[] = [];
  try {
    answers = await Promise.all(['a', 'b', 'c'].map((who) => handler(apiEvent('GET /probe', { headers: { 'x-trace-id': `trace-${who}`, 'x-who': who } }), {} as Context)));
    logger.info('outside');
  } finally {
    spy.mockRestore();
  }
  expect(answers.map((a) => (a as { statusCode: number }).statusCode)).toEqual([200, 200, 200]);
  const events = lines.map((l) => JSON.parse(l) as { event: string; who?: string; traceId?: string });
  const steps = events.filter((e) => e.event.startsWith('step_'));
  expect(steps).toHaveLength(6);
  for (const e of steps) expect(e.traceId).toBe(`trace-${e.who}`);
  // The steps really interleaved: every first step came before any second one.
  expect(steps.slice(0, 3).map((e) => e.event)).toEqual(['step_one', 'step_one', 'step_one']);
  expect(events.find((e) => e.event === 'outside')?.traceId).toBeUndefined();
});

describe('the lone invocation', () => {
  // In AWS an instance serves one invocation at a time: it must not pay for the
  // AsyncLocalStorage, whose first run hooks every promise of the process (lib/log.ts).
  const gate = () => {
    let open!: () => void;
    let arrive!: () => void;
    const opened = new Promise<void>((resolve) => { open = resolve; });
    const reached = new Promise<void>((resolve) => { arrive = resolve; });
    return { open, opened, arrive, reached };
  };
  const gates = new Map<string, ReturnType<typeof gate>>();
  const gated = http({ auth: false }, async (req) => {
    const who = req.headers['x-who']!;
    logger.info('before_gate', { who });
    gates.get(who)?.arrive();
    await gates.get(who)?.opened;
    logger.info('after_gate', { who });
    return { body: {} };
  });
  const invoke = (who: string) => gated(apiEvent('GET /probe', { headers: { 'x-trace-id': `trace-${who}`, 'x-who': who } }), {} as Context);

  it('runs outside the AsyncLocalStorage, the ones beside it inside it, and the next one that finds no lone one in flight outside it again, each under its own trace id', async () => {
    const runs = jest.spyOn(AsyncLocalStorage.prototype, 'run');
    const lines: string[] = [];
    const out = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      await invoke('alone');
      expect(runs).not.toHaveBeenCalled();

      // a starts alone; b beside it (in the storage); a ends while b waits; c starts while b is
      // in flight, but no lone one is: c is the lone one; then b, then c end.
      for (const who of ['a', 'b', 'c']) gates.set(who, gate());
      const a = invoke('a');
      await gates.get('a')!.reached;
      const b = invoke('b');
      await gates.get('b')!.reached;
      gates.get('a')!.open();
      await a;
      const c = invoke('c');
      await gates.get('c')!.reached;
      gates.get('b')!.open();
      await b;
      gates.get('c')!.open();
      await c;
      expect(runs).toHaveBeenCalledTimes(1);

      // Nothing in flight again: the next one is alone.
      await invoke('later');
      expect(runs).toHaveBeenCalledTimes(1);
      logger.info('outside');
    } finally {
      out.mockRestore();
      runs.mockRestore();
      gates.clear();
    }
    const events = lines.map((l) => JSON.parse(l) as { event: string; who?: string; traceId?: string });
    const steps = events.filter((e) => e.event === 'before_gate' || e.event === 'after_gate');
    expect(steps.map((e) => `${e.event}:${e.who}`)).toEqual([
      'before_gate:alone', 'after_gate:alone',
      'before_gate:a', 'before_gate:b', 'after_gate:a', 'before_gate:c', 'after_gate:b', 'after_gate:c',
      'before_gate:later', 'after_gate:later',
    ]);
    for (const e of steps) expect(e.traceId).toBe(`trace-${e.who}`);
    expect(events.find((e) => e.event === 'outside')?.traceId).toBeUndefined();
  });
});
