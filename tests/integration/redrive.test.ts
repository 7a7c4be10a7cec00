// The local redrive of stream records that failed past their retries (scripts/lib/redrive.mjs,
// `npm run redrive`): a follow whose stream record could not be delivered (the consumer was
// down) lands in the dead-letter file as npm start writes it; once the consumer is back, the
// redrive delivers it to the real handler, the follower's notification appears, and the file
// is emptied. A record that fails again stays in the file with its new error.
import '../support/own-stream-table';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call } from '../support/invoke';
import { users } from '../support/posts';
import { follow } from '../support/graph';
import { eventually, startTestStream } from '../support/stream';
import { handler as consumer } from '../../functions/events/stream';
import { handler as listH } from '../../functions/notifications/list';
import { readDeadLetters, redriveDeadLetters } from '../../scripts/lib/redrive.mjs';
import type { TestUser } from '../support/factories';

let dir: string;
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'aperture-redrive-')); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const notifications = async (u: TestUser) => {
  const res = await call(listH, 'GET /notifications', { token: u.token });
  expect(res.status).toBe(200);
  return (res.body as { notifications: { type: string; actor: { _id: string } }[] }).notifications;
};

it('redelivers a dead-lettered stream record to the consumer, which then does its work; a record failing again is kept', async () => {
  // The consumer is down: every delivery fails, and with no retries each record is dead-lettered at once.
  const stream = startTestStream({ maxRetries: 0, invoke: async () => { throw new Error('the consumer is down'); } });
  const [me, fan] = await users(2);
  try {
    await follow(fan, me);
    const isFollow = (l: { record: Record<string, unknown> }) => JSON.stringify(l.record).includes('"FOLLOW"');
    await eventually(async () => stream.deadLetters, (letters) => letters.some(isFollow), 30_000);
  } finally {
    await stream.poller.stop();
  }
  const letters = stream.deadLetters.filter((l) => JSON.stringify(l.record).includes('"FOLLOW"'));
  expect(letters).toHaveLength(1);
  expect(letters[0]!.error).toBe('the consumer is down');
  expect(await notifications(me)).toEqual([]);

  // The file as scripts/lib/local-stream.mjs writes it.
  const file = join(dir, '.stream-dead-letters.jsonl');
  writeFileSync(file, letters.map((l) => `${JSON.stringify({ at: new Date().toISOString(), ...l })}\n`).join(''));

  // Still down: the redrive keeps the record, with the new error.
  const again = await redriveDeadLetters({ file, invoke: async () => { throw new Error('still down'); } });
  expect(again).toEqual({ redriven: 0, kept: 1 });
  expect(readDeadLetters(file)).toEqual([expect.objectContaining({ record: letters[0]!.record, error: 'still down' })]);

  // Back up: the real consumer handles it, the notification exists, the file is empty.
  const done = await redriveDeadLetters({ file, invoke: (event) => consumer(event as never) });
  expect(done).toEqual({ redriven: 1, kept: 0 });
  expect(readFileSync(file, 'utf8')).toBe('');
  expect(await notifications(me)).toEqual([expect.objectContaining({ type: 'FOLLOW', actor: expect.objectContaining({ _id: fan.id }) })]);

  // Redriving an empty file does nothing.
  expect(await redriveDeadLetters({ file, invoke: (event) => consumer(event as never) })).toEqual({ redriven: 0, kept: 0 });
});
