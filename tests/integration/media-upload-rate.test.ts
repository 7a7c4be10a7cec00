// The upload rate (contract section 12): at most UPLOADS_PER_HOUR (60) uploads issued per user
// in any 60 minutes, else 429 TOO_MANY_ATTEMPTS with Retry-After; it holds under concurrency,
// slides, and an Idempotency-Key replay is not counted again (lib/media/upload-rate.ts).
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { call, type CallResult } from '../support/invoke';
import { makeUser } from '../support/factories';
import { getItem } from '../support/db';
import { db, TABLE } from '../../lib/db/client';
import * as keys from '../../lib/keys';
import { idTime, newId } from '../../lib/ids';
import { handler as uploads } from '../../functions/media/uploads';
import { uploadsPerHour } from '../../lib/media/upload-rate';

const body = { contentType: 'image/jpeg', size: 1000 };
const issue = (token: string, headers?: Record<string, string>) => call(uploads, 'POST /media/uploads', { token, body, headers });
const MINUTE = 60_000;

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** A ULID issued at `ms` (its time digits replaced). */
function idAt(ms: number): string {
  let time = '';
  for (let i = 0, t = ms; i < 10; i++, t = Math.floor(t / 32)) time = ALPHABET[t % 32]! + time;
  return time + newId().slice(10);
}

/** The user's window as if these uploads had been issued at these times. */
async function seedWindow(userId: string, issuedAt: number[]): Promise<string[]> {
  const ids = issuedAt.map(idAt);
  await db.send(new PutCommand({
    TableName: TABLE,
    Item: { ...keys.uploadRate(userId), issued: new Set(ids), expiresAt: Math.floor(Date.now() / 1000) + 3700 },
  }));
  return ids;
}

const issuedIds = async (userId: string) => [...((await getItem(keys.uploadRate(userId)))?.issued as Set<string> ?? [])];
const statuses = (results: CallResult[]) => results.map((r) => r.status).sort();

it('reads UPLOADS_PER_HOUR from the environment (default 60)', () => {
  expect(uploadsPerHour({})).toBe(60);
  expect(uploadsPerHour({ UPLOADS_PER_HOUR: '5' })).toBe(5);
  for (const bad of ['0', '-1', '2.5', 'many', '']) expect(() => uploadsPerHour({ UPLOADS_PER_HOUR: bad })).toThrow('Invalid configuration: UPLOADS_PER_HOUR');
});

it('issues 60 uploads in an hour, and answers the 61st 429 TOO_MANY_ATTEMPTS with Retry-After, issuing nothing', async () => {
  const me = await makeUser();
  for (let i = 0; i < 60; i++) expect((await issue(me.token)).status).toBe(201);
  const refused = await issue(me.token);
  expect(refused.status).toBe(429);
  expect(refused.body).toMatchObject({ success: false, code: 'TOO_MANY_ATTEMPTS' });
  const retry = Number(refused.headers['retry-after']);
  // The oldest of the 60 was issued moments ago: about an hour to wait.
  expect(retry).toBeGreaterThan(3000);
  expect(retry).toBeLessThanOrEqual(3600);
  expect(await issuedIds(me.id)).toHaveLength(60);
});

it('slides: uploads older than 60 minutes no longer count (and are trimmed), and Retry-After waits for the oldest of the last 60', async () => {
  const me = await makeUser();
  const now = Date.now();
  const old = await seedWindow(me.id, Array.from({ length: 60 }, () => now - 61 * MINUTE));
  const fresh = await issue(me.token);
  expect(fresh.status).toBe(201);
  expect(await issuedIds(me.id)).toEqual([fresh.body.upload.mediaId]);
  expect(old).toHaveLength(60);

  // 60 within the hour, the oldest 50 minutes ago: the next may be issued in 10 minutes.
  const other = await makeUser();
  await seedWindow(other.id, [now - 50 * MINUTE, ...Array.from({ length: 59 }, () => now - 5 * MINUTE)]);
  const refused = await issue(other.token);
  expect(refused.status).toBe(429);
  const retry = Number(refused.headers['retry-after']);
  expect(retry).toBeGreaterThan(590);
  expect(retry).toBeLessThanOrEqual(600);
});

it('cannot be overshot by concurrent requests: 20 at once at the 59th upload issue exactly one', async () => {
  const me = await makeUser();
  await seedWindow(me.id, Array.from({ length: 59 }, (_, i) => Date.now() - (i + 1) * MINUTE));
  const results = await Promise.all(Array.from({ length: 20 }, () => issue(me.token)));
  expect(statuses(results)).toEqual([201, ...Array(19).fill(429)]);
  // The window holds the 59 and the one issued, not the refused ones.
  const ids = await issuedIds(me.id);
  expect(ids).toHaveLength(60);
  expect(ids).toContain(results.find((r) => r.status === 201)!.body.upload.mediaId);
  expect(ids.every((id) => Date.now() - idTime(id) < 60 * MINUTE)).toBe(true);
});

it('counts an upload once: an Idempotency-Key replay is not counted again', async () => {
  const me = await makeUser();
  await seedWindow(me.id, Array.from({ length: 58 }, () => Date.now() - MINUTE));
  const headers = { 'Idempotency-Key': `rate-${me.id}` };
  const first = await issue(me.token, headers);
  expect(first.status).toBe(201);
  for (let i = 0; i < 3; i++) {
    const again = await issue(me.token, headers);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
  }
  // 59 issued: one more, then none.
  expect((await issue(me.token)).status).toBe(201);
  expect((await issue(me.token)).status).toBe(429);
});
