// npm start's asynchronous invocations (scripts/lib/local-async.mjs): accepted at once, run
// as RequestResponse invocations against serverless-offline's Lambda endpoint, retried when
// the function fails, and dead-lettered when every attempt failed. A stand-in for the Lambda
// endpoint answers as serverless-offline does (a failed function: 200 with
// X-Amz-Function-Error: Unhandled and the error as payload).
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalAsync } from '../../scripts/lib/local-async.mjs';
import { asyncRetries } from '../../scripts/lib/manifests.mjs';
import { redriveAsyncDeadLetters } from '../../scripts/lib/redrive.mjs';
import { invokeFunction } from '../../scripts/lib/local-async.mjs';

let lambda: Server;
let lambdaEndpoint: string;
const calls: { name: string; type: string | undefined; event: unknown }[] = [];
let failuresLeft: Record<string, number> = {};

beforeAll(async () => {
  lambda = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const name = decodeURIComponent(/functions\/([^/]+)\/invocations/.exec(req.url!)![1]!);
      calls.push({ name, type: req.headers['x-amz-invocation-type'] as string | undefined, event: JSON.parse(Buffer.concat(chunks).toString()) });
      if ((failuresLeft[name] ?? 0) > 0) {
        failuresLeft[name]!--;
        res.writeHead(200, { 'X-Amz-Function-Error': 'Unhandled' }).end(JSON.stringify({ errorMessage: `${name} broke`, errorType: 'Error' }));
      } else {
        res.writeHead(200).end('null');
      }
    });
  });
  await new Promise<void>((r) => lambda.listen(0, '127.0.0.1', () => r()));
  lambdaEndpoint = `http://127.0.0.1:${(lambda.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => lambda.close(() => r())));
beforeEach(() => { calls.length = 0; failuresLeft = {}; });

it('takes an Event invocation with 202 at once and runs it as a RequestResponse one, retrying a failure', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'aperture-async-'));
  const local = startLocalAsync({ lambdaEndpoint, retriesOf: () => 2, backoffMs: [10, 20], deadLetterFile: join(dir, 'dead.jsonl') });
  try {
    failuresLeft = { 'aperture-local-cleanupWorker': 1 };
    const res = await fetch(`${await local.endpoint}/2015-03-31/functions/aperture-local-cleanupWorker/invocations`, {
      method: 'POST', headers: { 'X-Amz-Invocation-Type': 'Event', 'Content-Type': 'application/json' }, body: JSON.stringify({ kind: 'post', id: 'P1' }),
    });
    expect(res.status).toBe(202);
    await local.drain();
    expect(calls).toEqual([
      { name: 'aperture-local-cleanupWorker', type: 'RequestResponse', event: { kind: 'post', id: 'P1' } },
      { name: 'aperture-local-cleanupWorker', type: 'RequestResponse', event: { kind: 'post', id: 'P1' } },
    ]);
    expect(existsSync(join(dir, 'dead.jsonl'))).toBe(false);
    // Only asynchronous invocations are taken; a synchronous one is refused, not run.
    const sync = await fetch(`${await local.endpoint}/2015-03-31/functions/aperture-local-cleanupWorker/invocations`, { method: 'POST', body: '{}' });
    expect(sync.status).toBe(400);
    expect(calls).toHaveLength(2);
  } finally {
    await local.stop();
  }
});

it('keeps an event whose every attempt failed on the dead-letter file, with the error', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'aperture-async-'));
  const said: string[] = [];
  const local = startLocalAsync({ lambdaEndpoint, retriesOf: () => 2, backoffMs: [10, 20], deadLetterFile: join(dir, 'dead.jsonl'), say: (m: string) => said.push(m) });
  try {
    failuresLeft = { 'aperture-local-mediaProcess': 5 };
    local.dispatch('aperture-local-mediaProcess', { Records: [{ s3: { object: { key: 'uploads/M1' } } }] });
    await local.drain();
    expect(calls).toHaveLength(3);
    const letters = readFileSync(join(dir, 'dead.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(letters).toEqual([expect.objectContaining({
      functionName: 'aperture-local-mediaProcess', attempts: 3, error: 'aperture-local-mediaProcess broke',
      event: { Records: [{ s3: { object: { key: 'uploads/M1' } } }] },
    })]);
    expect(said.join('\n')).toContain('failed 3 times');

    // npm run redrive: once the cause is fixed the letter runs again and leaves the file; a
    // letter that fails again stays, with its new error.
    local.dispatch('aperture-local-cleanupWorker', { kind: 'post', id: 'P2' });
    failuresLeft = { 'aperture-local-cleanupWorker': 3 };
    await local.drain();
    failuresLeft = { 'aperture-local-cleanupWorker': 1 };
    calls.length = 0;
    const file = join(dir, 'dead.jsonl');
    const first = await redriveAsyncDeadLetters({ file, invoke: (name: string, event: unknown) => invokeFunction(lambdaEndpoint, name, event) });
    expect(first).toEqual({ redriven: 1, kept: 1 });
    expect(calls.map((c) => c.name)).toEqual(['aperture-local-mediaProcess', 'aperture-local-cleanupWorker']);
    const left = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(left).toEqual([expect.objectContaining({ functionName: 'aperture-local-cleanupWorker', error: 'aperture-local-cleanupWorker broke', event: { kind: 'post', id: 'P2' } })]);
    expect(await redriveAsyncDeadLetters({ file, invoke: (name: string, event: unknown) => invokeFunction(lambdaEndpoint, name, event) })).toEqual({ redriven: 1, kept: 0 });
    expect(readFileSync(file, 'utf8')).toBe('');
  } finally {
    await local.stop();
  }
});

it('retries as many times as the deployed function declares (Lambda\'s default 2)', () => {
  expect(asyncRetries('cleanupSweeper')).toBe(0);
  expect(asyncRetries('cleanupWorker')).toBe(2);
  expect(asyncRetries('mediaProcess')).toBe(2);
  expect(asyncRetries('no-such-function')).toBe(2);
});
