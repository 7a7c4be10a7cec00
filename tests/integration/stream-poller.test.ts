// The local delivery of the change stream (scripts/lib/stream-poller.mjs) keeps the event
// source mapping's promises: every record at least once and in order per shard, filtered as
// declared, a failing record retried and then sent to the dead letters (never dropped in
// silence), and a restart with a checkpoint neither replays nor skips.
import '../support/own-stream-table';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../../lib/db/client';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GET_RECORDS_TIMEOUT_MS, startStreamPoller, passesFilters, consumerMapping, type DeadLetter } from '../../scripts/lib/stream-poller.mjs';
import { ROOT } from '../../scripts/lib/manifests.mjs';
import { eventually } from '../support/stream';

type Event = { Records: { eventName: string; dynamodb: { Keys: { PK: { S: string } }; SequenceNumber: string } }[] };
const pkOf = (r: Event['Records'][number]) => r.dynamodb.Keys.PK.S;
const put = (PK: string, extra: Record<string, unknown> = {}) => db.send(new PutCommand({ TableName: TABLE, Item: { PK, SK: 'X', type: 'TEST', ...extra } }));
const base = { endpoint: process.env.DYNAMODB_ENDPOINT!, tableName: TABLE, pollMs: 20 };

it('retries a failing record, then dead-letters it and goes on; the batch before it is not delivered twice', async () => {
  const tag = `dlq-${Date.now()}`;
  const delivered: string[] = [];
  const attempts = new Map<string, number>();
  const deadLetters: DeadLetter[] = [];
  const poller = startStreamPoller({
    ...base,
    maxRetries: 2,
    invoke: async (event) => {
      const records = (event as Event).Records.filter((r) => pkOf(r).startsWith(tag));
      for (const r of records) {
        const pk = pkOf(r);
        attempts.set(pk, (attempts.get(pk) ?? 0) + 1);
        if (pk.endsWith('#poison')) return { batchItemFailures: [{ itemIdentifier: r.dynamodb.SequenceNumber }] };
        delivered.push(pk);
      }
      return { batchItemFailures: [] };
    },
    onDeadLetter: (l) => { deadLetters.push(l); },
  });
  for (const name of ['a', 'b', 'poison', 'c', 'd']) await put(`${tag}#${name}`);
  await eventually(async () => delivered, (d) => d.includes(`${tag}#d`));
  await poller.stop();
  expect(delivered).toEqual(['a', 'b', 'c', 'd'].map((n) => `${tag}#${n}`));
  expect(attempts.get(`${tag}#poison`)).toBe(3); // the first try and two retries
  expect(deadLetters).toHaveLength(1);
  expect(deadLetters[0]).toMatchObject({ attempts: 3, record: { eventName: 'INSERT', dynamodb: { Keys: { PK: { S: `${tag}#poison` } } } } });
});

it('bisects a batch whose invocation throws until the failing record is alone, and dead-letters only that one', async () => {
  const tag = `bisect-${Date.now()}`;
  const delivered = new Set<string>();
  const deadLetters: DeadLetter[] = [];
  for (const n of [1, 2, 3, 4, 5, 6]) await put(`${tag}#${n}`);
  const poller = startStreamPoller({
    ...base,
    maxRetries: 1,
    invoke: async (event) => {
      const mine = (event as Event).Records.filter((r) => pkOf(r).startsWith(tag));
      if (mine.some((r) => pkOf(r) === `${tag}#4`)) throw new Error('the function crashed');
      for (const r of mine) delivered.add(pkOf(r));
      return undefined;
    },
    onDeadLetter: (l) => { deadLetters.push(l); },
  });
  await eventually(async () => delivered.size, (n) => n === 5);
  await poller.stop();
  expect([...delivered].sort()).toEqual([1, 2, 3, 5, 6].map((n) => `${tag}#${n}`));
  expect(deadLetters.map((l) => (l.record as Event['Records'][number]).dynamodb.Keys.PK.S)).toEqual([`${tag}#4`]);
  expect(deadLetters[0]!.error).toBe('the function crashed');
});

it('resumes after a restart from its checkpoint: nothing replayed, nothing skipped', async () => {
  const tag = `ckpt-${Date.now()}`;
  const checkpointFile = join(mkdtempSync(join(tmpdir(), 'aperture-stream-')), 'checkpoint.json');
  const seen: string[] = [];
  const invoke = async (event: unknown) => {
    seen.push(...(event as Event).Records.map(pkOf).filter((pk) => pk.startsWith(tag)));
    return undefined;
  };
  let poller = startStreamPoller({ ...base, invoke, checkpointFile });
  await put(`${tag}#1`);
  await eventually(async () => seen, (s) => s.length === 1);
  await poller.stop();
  await put(`${tag}#2`); // written while nothing reads the stream
  poller = startStreamPoller({ ...base, invoke, checkpointFile });
  await put(`${tag}#3`);
  await eventually(async () => seen, (s) => s.length >= 3);
  await poller.idle();
  await poller.stop();
  expect(seen).toEqual([1, 2, 3].map((n) => `${tag}#${n}`));
});

it("applies the consumer's filter patterns as the event source mapping does", () => {
  const { filterPatterns } = consumerMapping(ROOT);
  const record = (eventName: string, image: 'NewImage' | 'OldImage', item: Record<string, unknown>) => ({ eventName, dynamodb: { [image]: item } });
  expect(passesFilters(record('INSERT', 'NewImage', { type: { S: 'POST' } }), filterPatterns)).toBe(true);
  expect(passesFilters(record('REMOVE', 'OldImage', { type: { S: 'FOLLOW' } }), filterPatterns)).toBe(true);
  // A job's step, a caption edit's mentions and the unread count: by their sort keys.
  const keyed = (eventName: string, SK: string, item: Record<string, unknown>) => ({ eventName, dynamodb: { Keys: { PK: { S: 'X#1' }, SK: { S: SK } }, NewImage: item } });
  expect(passesFilters(keyed('MODIFY', 'JOB', { type: { S: 'JOB' } }), filterPatterns)).toBe(true);
  expect(passesFilters(keyed('INSERT', '#MENTIONS', { type: { S: 'MENTIONS' } }), filterPatterns)).toBe(true);
  expect(passesFilters(keyed('MODIFY', 'PROFILE', { type: { S: 'USER' } }), filterPatterns)).toBe(false);
  // A TTL's removal of a notification or an upload, by its type (the reactions check byTtl).
  expect(passesFilters(record('REMOVE', 'OldImage', { type: { S: 'NOTIFICATION' } }), filterPatterns)).toBe(true);
  expect(passesFilters(record('REMOVE', 'OldImage', { type: { S: 'MEDIA' } }), filterPatterns)).toBe(true);
  // Lambda's default quota is five filters per event source mapping (ten on request).
  expect(filterPatterns.length).toBeLessThanOrEqual(5);
  expect(passesFilters(record('MODIFY', 'NewImage', { type: { S: 'USER' }, pullMode: { BOOL: true } }), filterPatterns)).toBe(true);
  // A new e-mail in the outbox, a password reset request (lib/mail/reactions.ts); not their removal.
  expect(passesFilters(record('INSERT', 'NewImage', { type: { S: 'MAIL' } }), filterPatterns)).toBe(true);
  expect(passesFilters(record('INSERT', 'NewImage', { type: { S: 'RESET_REQUEST' } }), filterPatterns)).toBe(true);
  expect(passesFilters(record('REMOVE', 'OldImage', { type: { S: 'MAIL' } }), filterPatterns)).toBe(false);
  // A like moving a post's counter, a feed entry, a log record: no invocation at all.
  expect(passesFilters(record('MODIFY', 'NewImage', { type: { S: 'POST' } }), filterPatterns)).toBe(false);
  expect(passesFilters(record('INSERT', 'NewImage', { type: { S: 'HOME' } }), filterPatterns)).toBe(false);
  expect(passesFilters(record('MODIFY', 'NewImage', { type: { S: 'USER' } }), filterPatterns)).toBe(false);
  // Live updates (lib/live/reactions.ts): a listed notification, a change of the unread count, a
  // fan-out's feed entry, a session's end, an account gone; not the author's own feed entry.
  expect(passesFilters(record('INSERT', 'NewImage', { type: { S: 'NOTIFICATION' } }), filterPatterns)).toBe(true);
  expect(passesFilters({ eventName: 'MODIFY', dynamodb: { Keys: { PK: { S: 'USER#1' }, SK: { S: 'NOTIF_STATE' } }, NewImage: { unread: { N: '1' } } } }, filterPatterns)).toBe(true);
  expect(passesFilters(record('INSERT', 'NewImage', { type: { S: 'HOME' }, fanout: { BOOL: true } }), filterPatterns)).toBe(true);
  // The fan-out's put over a late backfill's entry (lib/live/reactions.ts says why).
  expect(passesFilters(record('MODIFY', 'NewImage', { type: { S: 'HOME' }, fanout: { BOOL: true } }), filterPatterns)).toBe(true);
  expect(passesFilters(record('REMOVE', 'OldImage', { type: { S: 'SESSION' } }), filterPatterns)).toBe(true);
  expect(passesFilters(record('INSERT', 'NewImage', { type: { S: 'GONE' } }), filterPatterns)).toBe(true);
  expect(passesFilters(record('MODIFY', 'NewImage', { type: { S: 'SESSION' } }), filterPatterns)).toBe(false);
});

type Answer = import('node:http').ServerResponse;
/**
 * A proxy in front of DynamoDB Local: each GetRecords goes to `getRecords` first, which answers
 * it itself (or never) by returning true; everything else passes through.
 */
async function dynamoProxy(getRecords: (res: Answer) => boolean): Promise<{ endpoint: string; close(): void }> {
  const target = new URL(process.env.DYNAMODB_ENDPOINT!);
  const proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (String(req.headers['x-amz-target'] ?? '').endsWith('.GetRecords') && getRecords(res)) return;
      const out = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 500, up.headers);
        up.pipe(res);
      });
      out.on('error', () => res.destroy());
      out.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
  return {
    endpoint: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    close: () => {
      proxy.closeAllConnections();
      proxy.close();
    },
  };
}

/**
 * A change written through a poller whose first GetRecords `stall` answers itself (or never):
 * what it delivered of the change, once delivered or GET_RECORDS_TIMEOUT_MS and 10 s later,
 * and how many reads it held. The poller reads from the shard's start, as the consumer's mapping
 * reads it (TRIM_HORIZON): the read asked again after a drop starts where the held one did.
 */
async function deliveredPastAStall(name: string, stall: (res: Answer) => void): Promise<{ delivered: string[]; held: number; tag: string }> {
  let held = 0;
  const proxy = await dynamoProxy((res) => {
    if (held > 0) return false;
    held++;
    stall(res);
    return true;
  });
  const tag = `${name}-${Date.now()}`;
  const delivered: string[] = [];
  const poller = startStreamPoller({
    ...base,
    endpoint: proxy.endpoint,
    invoke: async (event) => {
      for (const r of (event as Event).Records) if (pkOf(r).startsWith(tag)) delivered.push(pkOf(r));
      return { batchItemFailures: [] };
    },
  });
  try {
    await put(`${tag}#a`);
    // Within the timeout and a few polls, not the minute DynamoDB Local can keep a read waiting.
    await eventually(async () => delivered, (d) => d.includes(`${tag}#a`), GET_RECORDS_TIMEOUT_MS + 10_000);
    return { delivered, held, tag };
  } finally {
    await poller.stop();
    proxy.close();
  }
}

it('a GetRecords left unanswered is dropped after GET_RECORDS_TIMEOUT_MS and asked again: the shard goes on, nothing lost', async () => {
  // No answer, ever (what DynamoDB Local now and then does for a minute).
  const { delivered, held, tag } = await deliveredPastAStall('stall', () => undefined);
  expect(held).toBe(1);
  expect(delivered).toEqual([`${tag}#a`]);
}, 60_000);

it('a GetRecords whose answer stalls after its headers is dropped after GET_RECORDS_TIMEOUT_MS of silence and asked again: nothing lost', async () => {
  // The head of an answer and the start of its body, then nothing.
  const { delivered, held, tag } = await deliveredPastAStall('stall-body', (res) => {
    res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
    res.write('{"Records":[');
  });
  expect(held).toBe(1);
  expect(delivered).toEqual([`${tag}#a`]);
}, 60_000);

it('started at LATEST, ready() resolves once every shard is read: a change written right after is delivered, one written before is not', async () => {
  const tag = `latest-${Date.now()}`;
  await put(`${tag}#before`);
  const delivered: string[] = [];
  const poller = startStreamPoller({
    ...base,
    startingPosition: 'LATEST',
    invoke: async (event) => {
      for (const r of (event as Event).Records) if (pkOf(r).startsWith(tag)) delivered.push(pkOf(r));
      return { batchItemFailures: [] };
    },
  });
  try {
    await poller.ready();
    await put(`${tag}#after`);
    await eventually(async () => delivered, (d) => d.includes(`${tag}#after`));
    await poller.idle();
    expect(delivered).toEqual([`${tag}#after`]);
  } finally {
    await poller.stop();
  }
});

it('started at LATEST, a GetRecords that fails before the shard\'s first record is asked again from the same position: the change written meanwhile is delivered', async () => {
  // Once `failing` is set (after ready()), the proxy holds the next GetRecords until the change is
  // written, then answers it, and every GetRecords after it, with a server error until the poller
  // itself has seen one (the SDK retries first). A new LATEST iterator taken after that failure
  // would start past the change.
  let failing = false;
  const waiting: (() => void)[] = [];
  let released = false;
  const fail = (res: Answer) => {
    res.writeHead(500, { 'content-type': 'application/x-amz-json-1.0' });
    res.end(JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'held by the test' }));
  };
  const proxy = await dynamoProxy((res) => {
    if (!failing) return false;
    if (released) fail(res);
    else waiting.push(() => fail(res));
    return true;
  });
  const tag = `latest-fail-${Date.now()}`;
  const delivered: string[] = [];
  const logged: string[] = [];
  const poller = startStreamPoller({
    ...base,
    endpoint: proxy.endpoint,
    startingPosition: 'LATEST',
    invoke: async (event) => {
      for (const r of (event as Event).Records) if (pkOf(r).startsWith(tag)) delivered.push(pkOf(r));
      return { batchItemFailures: [] };
    },
    log: (line) => {
      logged.push(line);
      failing = false;
    },
  });
  try {
    await poller.ready();
    failing = true;
    await eventually(async () => waiting.length, (n) => n === 1);
    await put(`${tag}#a`);
    released = true;
    waiting.splice(0).forEach((answer) => answer());
    await eventually(async () => delivered, (d) => d.includes(`${tag}#a`));
    expect(logged).toEqual([expect.stringContaining('InternalServerError: held by the test')]);
    expect(delivered).toEqual([`${tag}#a`]);
  } finally {
    await poller.stop();
    proxy.close();
  }
});
