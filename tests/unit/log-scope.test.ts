// Two invocations of one handler that interleave (npm start's in-process runner, the tests'
// concurrent calls) each log under their own trace id.
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
