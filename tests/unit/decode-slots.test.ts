// At most two images decoded at once per process (contract section 12): lib/media/slots.ts
// and render's use of it (lib/media/render.ts). Deterministic: tasks end when the test says.
import { pngHeaderOnly } from '../support/png';
import sharp from 'sharp';
import { Slots } from '../../lib/media/slots';
import { decodeSlots, MAX_DECODES, REASONS, render } from '../../lib/media/render';

/** A task that runs until `finish()` is called; `started` tells whether it began. */
function held() {
  let finish!: () => void;
  const done = new Promise<void>((r) => { finish = r; });
  const task = { started: false, finish: () => finish(), run: async () => { task.started = true; await done; } };
  return task;
}

/** Lets queued promise callbacks run. */
const settle = () => new Promise((r) => setImmediate(r));

/** Polls (no timing asserted) until `cond` holds. */
async function until(cond: () => boolean) {
  for (let i = 0; !cond(); i++) {
    if (i > 2000) throw new Error('condition never held');
    await new Promise((r) => setTimeout(r, 5));
  }
}

it('runs two tasks at once; the third waits until one ends, and runs then', async () => {
  const slots = new Slots(2);
  const [a, b, c] = [held(), held(), held()];
  const runs = [slots.run(a.run), slots.run(b.run), slots.run(c.run)];
  await settle();
  expect([a.started, b.started, c.started]).toEqual([true, true, false]);
  expect([slots.active, slots.waiting]).toEqual([2, 1]);
  b.finish();
  await settle();
  expect(c.started).toBe(true);
  expect([slots.active, slots.waiting]).toEqual([2, 0]);
  a.finish(); c.finish();
  await Promise.all(runs);
  expect([slots.active, slots.waiting]).toEqual([0, 0]);
});

it('gives the slot back when a task throws', async () => {
  const slots = new Slots(1);
  await expect(slots.run(async () => { throw new Error('broken image'); })).rejects.toThrow('broken image');
  const next = held();
  const run = slots.run(next.run);
  await settle();
  expect(next.started).toBe(true);
  next.finish();
  await run;
  expect(slots.active).toBe(0);
});

it('render decodes at most two images at once: a third waits for a slot', async () => {
  expect(MAX_DECODES).toBe(2);
  const image = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c00' } }).jpeg().toBuffer();
  const [a, b] = [held(), held()];
  const holders = [decodeSlots.run(a.run), decodeSlots.run(b.run)];
  let done = false;
  const rendering = render(image, 'image/jpeg').then((r) => { done = true; return r; });
  await until(() => decodeSlots.waiting === 1);
  expect(done).toBe(false);
  a.finish();
  const result = await rendering;
  expect(result.ok).toBe(true);
  b.finish();
  await Promise.all(holders);
  expect([decodeSlots.active, decodeSlots.waiting]).toEqual([0, 0]);
});

it('refuses an image over 50 megapixels from its header, without taking a decode slot', async () => {
  // A PNG whose header says 20,000 x 20,000 (400 megapixels) in about 1 KB.
  const bomb = pngHeaderOnly(20_000, 20_000);
  // Both slots busy: a render that tried to decode would wait for ever.
  const [a, b] = [held(), held()];
  const holders = [decodeSlots.run(a.run), decodeSlots.run(b.run)];
  expect(await render(bomb, 'image/png')).toEqual({ ok: false, reason: REASONS.tooManyPixels });
  a.finish(); b.finish();
  await Promise.all(holders);
});
