// The cleanup trigger (lib/cleanup/trigger.ts) where an endpoint is set (AWS; npm start's
// CLEANUP_INVOKE_ENDPOINT): a Lambda Invoke of InvocationType Event, SigV4-signed for the
// "lambda" service with the DynamoDB client's credential chain and hash (lib/aws/signed.ts).
// A loopback stand-in for the Lambda API records each request and checks its signature with
// the test credentials; the tests' own local stage sends nothing.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import type { AddressInfo } from 'node:net';
import { triggerCleanup } from '../../lib/cleanup/trigger';
import { SendFailed, signedPost } from '../../lib/aws/signed';
import { dynamo } from '../../lib/db/client';
import { verifySigV4, type SigV4Check } from '../support/sigv4';

interface Seen { method: string | undefined; path: string | undefined; headers: IncomingHttpHeaders; body: string; check: SigV4Check }

const root = resolve(__dirname, '../..');
const execFileAsync = promisify(execFile);

let lambda: Server;
let endpoint: string;
const seen: Seen[] = [];
let answer: { status: number; body: string } = { status: 202, body: '' };

const listen = async (s: Server) => {
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
};
const close = (s: Server) => new Promise<void>((r) => { s.closeAllConnections(); s.close(() => r()); });

beforeAll(async () => {
  lambda = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      void verifySigV4(req, body, { service: 'lambda', region: 'us-east-1' }).then((check) => {
        seen.push({ method: req.method, path: req.url, headers: req.headers, body, check });
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
      });
    });
  });
  endpoint = await listen(lambda);
});
afterAll(() => close(lambda));

let errors: Record<string, unknown>[];
let spy: jest.SpyInstance;
beforeEach(() => {
  seen.length = 0;
  answer = { status: 202, body: '' };
  process.env.CLEANUP_INVOKE_ENDPOINT = endpoint;
  errors = [];
  spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    errors.push(JSON.parse(String(chunk)) as Record<string, unknown>);
    return true;
  });
});
afterEach(() => {
  spy.mockRestore();
  delete process.env.CLEANUP_INVOKE_ENDPOINT;
  delete process.env.CLEANUP_FUNCTION_NAME;
});

it('invokes the worker asynchronously with a request signed for Lambda, and is done when Lambda accepts it (202)', async () => {
  expect(await triggerCleanup('post', 'P1')).toBe(true);
  expect(seen).toHaveLength(1);
  const [r] = seen as [Seen];
  expect(r.method).toBe('POST');
  expect(r.path).toBe('/2015-03-31/functions/aperture-local-cleanupWorker/invocations');
  expect(r.headers['x-amz-invocation-type']).toBe('Event');
  expect(r.headers['content-type']).toBe('application/json');
  expect(JSON.parse(r.body)).toEqual({ kind: 'post', id: 'P1' });
  expect(r.check).toEqual({
    signed: true,
    scope: expect.stringMatching(/^\d{8}\/us-east-1\/lambda\/aws4_request$/),
    signedHeaders: expect.arrayContaining(['host', 'content-type', 'x-amz-invocation-type', 'x-amz-date']),
  });
  expect(errors).toEqual([]);
});

it('names the function CLEANUP_FUNCTION_NAME gives, escaped in the path', async () => {
  process.env.CLEANUP_FUNCTION_NAME = 'arn:aws:lambda:us-east-1:000000000000:function:worker';
  expect(await triggerCleanup('comment', 'C1')).toBe(true);
  expect(seen.map((r) => r.path)).toEqual(['/2015-03-31/functions/arn%3Aaws%3Alambda%3Aus-east-1%3A000000000000%3Afunction%3Aworker/invocations']);
  expect(seen[0]!.check.signed).toBe(true);
});

it('logs a refusal with its status and the start of its body, and answers false without throwing', async () => {
  answer = { status: 403, body: JSON.stringify({ Message: `not authorized ${'x'.repeat(600)}` }) };
  expect(await triggerCleanup('post', 'P2')).toBe(false);
  expect(errors).toEqual([expect.objectContaining({ level: 'ERROR', event: 'cleanup_trigger_refused', kind: 'post', id: 'P2', status: 403, body: answer.body.slice(0, 500) })]);
});

it('logs an unreachable endpoint and answers false without throwing', async () => {
  const gone = createServer();
  process.env.CLEANUP_INVOKE_ENDPOINT = await listen(gone);
  await close(gone);
  expect(await triggerCleanup('post', 'P3')).toBe(false);
  expect(errors).toEqual([expect.objectContaining({ level: 'ERROR', event: 'cleanup_trigger_failed', kind: 'post', id: 'P3', error: expect.any(String) })]);
});

it('sends nothing on the local stage without an endpoint (the tests run the worker themselves)', async () => {
  delete process.env.CLEANUP_INVOKE_ENDPOINT;
  expect(await triggerCleanup('post', 'P4')).toBe(false);
  expect(seen).toEqual([]);
  expect(errors).toEqual([]);
});

describe('signedPost', () => {
  const signing = { service: 'lambda', region: 'us-east-1', sdk: dynamo.config };
  const post = (over: Partial<Parameters<typeof signedPost>[0]>) => signedPost({
    ...signing, url: new URL('/2015-03-31/functions/f/invocations', endpoint), headers: { 'content-type': 'application/json' }, body: '{}', timeoutMs: 2000, ...over,
  });

  it('answers the status and text of any answer, an error status included', async () => {
    answer = { status: 500, body: '{"Message":"boom"}' };
    expect(await post({})).toEqual({ status: 500, text: '{"Message":"boom"}' });
    expect(seen[0]!.check.signed).toBe(true);
  });

  it('throws a failure to sign as it is, and sends nothing', async () => {
    const err = await post({ sdk: { ...dynamo.config, credentials: () => Promise.reject(new Error('no credentials')) } }).catch((e: unknown) => e);
    expect(err).toEqual(new Error('no credentials'));
    expect(err).not.toBeInstanceOf(SendFailed);
    expect(seen).toEqual([]);
  });

  it('turns a refused connection, and an answer cut off before its end, into a SendFailed', async () => {
    const gone = createServer();
    const refused = new URL('/', await listen(gone));
    await close(gone);
    await expect(post({ url: refused })).rejects.toBeInstanceOf(SendFailed);
    const cut = createServer((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('{"partial":');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const url = new URL('/', await listen(cut));
    try {
      await expect(post({ url })).rejects.toBeInstanceOf(SendFailed);
    } finally {
      await close(cut);
    }
  });

  it('sends the body with its length, not chunked, as AWS APIs expect', async () => {
    // 24 characters, 25 bytes: the length counts the bytes of é.
    await post({ body: '{"kind":"post","id":"é"}' });
    expect(seen[0]!.headers).toEqual(expect.objectContaining({ 'content-length': '25' }));
    expect(seen[0]!.headers['transfer-encoding']).toBeUndefined();
    expect(seen[0]!.body).toBe('{"kind":"post","id":"é"}');
    expect(seen[0]!.check.signed).toBe(true);
  });

  it('sends over https as over http, and never loads undici, which fetch would on a cold start', async () => {
    const { makeCertificate } = require('../../scripts/bench/tls.mjs');
    const dir = mkdtempSync(join(tmpdir(), 'aperture-signed-'));
    const cert = makeCertificate(join(dir, 'tls'));
    const seenTls: string[] = [];
    const server = createHttpsServer({ key: readFileSync(cert.key), cert: readFileSync(cert.cert) }, (req, res) => {
      seenTls.push(String(req.headers.authorization ?? '').split(' ')[0]!);
      res.end('{"ok":true}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    // A cold process, as a function's: the DynamoDB client's configuration, then one signed POST.
    const outfile = join(dir, 'post.js');
    await build({
      stdin: {
        contents: `
          import { signedPost } from './lib/aws/signed';
          import { dynamo } from './lib/db/client';
          signedPost({ service: 'ssm', region: 'us-east-1', sdk: dynamo.config,
            url: new URL(process.argv[2]), headers: { 'content-type': 'application/x-amz-json-1.1' }, body: '{}', timeoutMs: 5000 })
            .then((r) => console.log(JSON.stringify({ ...r, undici: process.moduleLoadList.some((m) => m.includes('undici/undici')) })));`,
        resolveDir: root, loader: 'ts',
      },
      bundle: true, platform: 'node', format: 'cjs', outfile, logLevel: 'error',
    });
    // Not execFileSync: it would block this process, whose event loop serves the https stand-in.
    const run = async (url: string) => JSON.parse((await execFileAsync(process.execPath, [outfile, url], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: cert.cert }, encoding: 'utf8',
    })).stdout.trim().split('\n').pop()!);
    try {
      expect(await run(`https://127.0.0.1:${port}/`)).toEqual({ status: 200, text: '{"ok":true}', undici: false });
      expect(seenTls).toEqual(['AWS4-HMAC-SHA256']);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('turns an answer that does not come within timeoutMs into a SendFailed', async () => {
    const silent = createServer(() => { /* never answers */ });
    const url = new URL('/', await listen(silent));
    try {
      // Named for what happened: the handler's abort carries the timeout as its cause.
      await expect(post({ url, timeoutMs: 50 })).rejects.toEqual(expect.objectContaining({ name: 'SendFailed', message: expect.stringMatching(/timeout/) }));
    } finally {
      await close(silent);
    }
  });
});
