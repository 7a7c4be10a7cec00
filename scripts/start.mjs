#!/usr/bin/env node
// `npm start`: DynamoDB Local (in memory; --persist keeps it in .dynamodb/), the table,
// then serverless-offline on http://localhost:3000. Ctrl-C or SIGTERM stops all of it.
// The media storage: a local S3-compatible server on a free loopback port (scripts/lib/local-s3.mjs),
// whose upload events invoke the media processing function asynchronously, as S3's event
// notification invokes it in AWS (scripts/lib/local-async.mjs: retries, then a dead-letter file).
// DYNAMODB_ENDPOINT=<url> uses a DynamoDB that is already running instead.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ensureTable, freePort, startDynamoLocal } from './lib/local-dynamodb.mjs';
import { startLocalStream } from './lib/local-stream.mjs';
import { STACK_FILE } from './lib/local-stack.mjs';
import { startLocalS3 } from './lib/local-s3.mjs';
import { startLocalAsync } from './lib/local-async.mjs';
import { startLocalSes } from './lib/local-ses.mjs';
import { asyncRetries } from './lib/manifests.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const persist = args.includes('--persist') || process.env.PERSIST === '1';
const port = Number(process.env.PORT || 3000);
const local = JSON.parse(readFileSync(new URL('../config/local.json', import.meta.url), 'utf8'));
const started = Date.now();
const say = (msg) => process.stdout.write(`[aperture] ${msg}\n`);

let dynamo;
/** DynamoDB Local while it starts, so that a stop during start-up still ends it. */
let dynamoStarting;
let offline;
let stream;
/** Asynchronous invocations: the cleanup worker's and media processing's. */
let asyncInvocations;
/** The local S3 server while it starts or runs. */
let storageStarting;
/** The local SES v2-compatible mail server (aws-ses-v2-local) while it starts or runs. */
let mailStarting;
let stopping = false;

async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  say('stopping...');
  await stream?.stop().catch(() => undefined);
  await asyncInvocations?.stop().catch(() => undefined);
  if (offline && offline.exitCode === null) {
    try { process.kill(-offline.pid, 'SIGTERM'); } catch { /* already gone */ }
  }
  await Promise.all([
    (dynamo ?? (await dynamoStarting?.catch(() => undefined)))?.stop(),
    (await storageStarting?.catch(() => undefined))?.stop(),
    (await mailStarting?.catch(() => undefined))?.stop(),
  ]);
  rmSync(STACK_FILE, { force: true });
  process.exit(code);
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
process.on('SIGHUP', () => stop(0));
// If whatever started us goes away without a signal reaching us (an IDE's stop button, a
// killed npm), stop too rather than leave DynamoDB Local and serverless-offline running.
const parent = process.ppid;
setInterval(() => { if (process.ppid !== parent) stop(0); }, 1000).unref();

async function waitForHttp(url, timeoutMs) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (offline.exitCode !== null) throw new Error('serverless-offline exited during start-up');
    try {
      await fetch(url, { signal: AbortSignal.timeout(1000) });
      return;
    } catch { await new Promise((r) => setTimeout(r, 250)); }
  }
  throw new Error(`serverless-offline did not answer at ${url} within ${timeoutMs / 1000} s`);
}

/** False when something already listens on the port (an address family the machine lacks is no conflict). */
function canListen(p, host) {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', (e) => resolve(e.code === 'EADDRNOTAVAIL' || e.code === 'EAFNOSUPPORT'));
    srv.listen(p, host, () => srv.close(() => resolve(true)));
  });
}

// Checked first: serverless-offline would otherwise fail only after its build, and the
// readiness check would take another server's answer for its own.
const busy = [];
for (const p of [port, port + 1, port + 2]) {
  if (!(await canListen(p, '127.0.0.1')) || !(await canListen(p, '::'))) busy.push(p);
}
if (busy.length) {
  process.stderr.write(`[aperture] port ${busy.join(', ')} is in use; npm start needs PORT, PORT+1 and PORT+2 (${port}-${port + 2}). `
    + 'Stop what uses it, or pick other ports: PORT=4000 npm start\n');
  process.exit(1);
}

try {
  // DynamoDB Local (about 3 s) and serverless-offline (its build, about 10 s) start side by
  // side: offline only needs the endpoint's address, which is chosen first.
  let endpoint = process.env.DYNAMODB_ENDPOINT;
  let database;
  if (endpoint) {
    say(`using DynamoDB at ${endpoint}`);
    database = Promise.resolve();
  } else {
    const path = persist ? `${root}.dynamodb` : undefined;
    if (path) mkdirSync(path, { recursive: true });
    let dynamoPort = await freePort();
    // An ephemeral port may be one of ours (a PORT in the ephemeral range): pick again.
    while (dynamoPort >= port && dynamoPort <= port + 2) dynamoPort = await freePort();
    endpoint = `http://127.0.0.1:${dynamoPort}`;
    dynamoStarting = startDynamoLocal({ path, port: dynamoPort });
    database = dynamoStarting.then((d) => {
      dynamo = d;
      say(`DynamoDB Local on ${endpoint} (${persist ? 'data kept in .dynamodb/' : 'in memory; --persist keeps data'})`);
    });
  }
  const table = database.then(async () => {
    const created = await ensureTable(endpoint, local.tableName);
    say(`table ${local.tableName} ${created ? 'created' : 'found'}`);
  });
  table.catch(() => undefined); // awaited below; a failure before that point must not crash unhandled

  // Media storage. Its port is chosen first (offline's functions need the endpoint); its
  // upload events go to the processing function, asynchronously (InvocationType Event), as in AWS.
  let s3Port = await freePort();
  while (s3Port >= port && s3Port <= port + 2) s3Port = await freePort();
  const s3Endpoint = `http://127.0.0.1:${s3Port}`;
  if (persist) mkdirSync(`${root}.s3`, { recursive: true });
  storageStarting = startLocalS3({
    port: s3Port,
    // With --persist the images are kept beside the table's data; otherwise a temporary directory, removed on exit.
    directory: persist ? `${root}.s3` : undefined,
    onEvent: (event) => {
      if (event.Records?.[0]?.eventName?.startsWith('ObjectCreated:')) asyncInvocations.dispatch('aperture-local-mediaProcess', event);
    },
  });
  storageStarting.catch(() => undefined); // awaited below

  // Mail: an SES v2-compatible server on a free loopback port; the functions send to it with
  // the code that sends to SES (lib/mail/ses.ts). Its GET /store lists every message.
  let mailPort = await freePort();
  while (mailPort >= port && mailPort <= port + 2) mailPort = await freePort();
  const mailUrl = `http://127.0.0.1:${mailPort}`;
  mailStarting = startLocalSes({ port: mailPort });
  mailStarting.catch(() => undefined); // awaited below

  // Asynchronous invocations (the cleanup worker, media processing) as Lambda runs them:
  // accepted at once, retried, dead-lettered (scripts/lib/local-async.mjs).
  asyncInvocations = startLocalAsync({
    lambdaEndpoint: `http://127.0.0.1:${port + 2}`,
    retriesOf: (name) => asyncRetries(name.replace(/^aperture-local-/, '')),
    deadLetterFile: `${root}.async-dead-letters.jsonl`,
    say: (msg) => say(`async: ${msg}`),
  });
  const asyncEndpoint = await asyncInvocations.endpoint;

  offline = spawn(process.execPath, [
    `${root}node_modules/serverless/bin/serverless.js`, 'offline', 'start', '--stage', 'local',
    '--httpPort', String(port), '--lambdaPort', String(port + 2), '--websocketPort', String(port + 1),
  ], {
    cwd: root,
    detached: true, // its own process group, so stop() ends its workers too
    stdio: ['ignore', 'pipe', 'pipe'],
    // MALLOC_MMAP_THRESHOLD_: as the deployed mediaProcess function (functions/media/functions.json),
    // so the memory of an image's decode goes back when it ends (lib/media/render.ts).
    env: { ...process.env, DYNAMODB_ENDPOINT: endpoint, S3_ENDPOINT: s3Endpoint, SES_ENDPOINT: mailUrl, CLEANUP_INVOKE_ENDPOINT: asyncEndpoint, WEBSOCKET_API_ENDPOINT: `http://127.0.0.1:${port + 1}`, SLS_TELEMETRY_DISABLED: '1', SLS_NOTIFICATIONS_MODE: 'off', STAGE: 'local', MALLOC_MMAP_THRESHOLD_: '131072' },
  });
  const verbose = args.includes('--verbose');
  // Until it is ready, serverless-offline's own start-up chatter is kept back (shown with
  // --verbose, or if the start fails); afterwards its request and error lines pass through.
  let held = '';
  offline.stdout.on('data', (d) => { if (verbose || ready) process.stdout.write(d); });
  offline.stderr.on('data', (d) => { if (verbose || ready) process.stderr.write(d); else held = (held + d).slice(-20_000); });
  offline.on('exit', () => { if (!ready && held) process.stderr.write(held); });
  offline.on('exit', (code) => { if (!stopping) { say(`serverless-offline exited (${code})`); stop(code || 1); } });

  var ready = false; // eslint-disable-line no-var
  const [, , storage] = await Promise.all([table, waitForHttp(`http://127.0.0.1:${port}/`, 120_000), storageStarting, mailStarting]);
  // The change stream: feed fan-out and the other background reactions, delivered to the
  // consumer function through serverless-offline's Lambda endpoint, as AWS delivers it.
  stream = startLocalStream({
    endpoint,
    tableName: local.tableName,
    lambdaEndpoint: `http://127.0.0.1:${port + 2}`,
    deadLetterFile: `${root}.stream-dead-letters.jsonl`,
    checkpointFile: persist ? `${root}.dynamodb/stream-checkpoint.json` : undefined,
    say: (msg) => say(`stream: ${msg}`),
  });
  ready = true;
  writeFileSync(STACK_FILE, JSON.stringify({ baseUrl: `http://localhost:${port}`, websocketUrl: `ws://localhost:${port + 1}`, dynamodbEndpoint: endpoint, s3Endpoint, mailUrl, pid: process.pid }, null, 2));
  say(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  say(`API: http://localhost:${port}`);
  say(`live updates (WebSocket): ws://localhost:${port + 1}/?token=<access token>`);
  say('change stream: polled and delivered to the streamConsumer function (failures kept in .stream-dead-letters.jsonl)');
  say('asynchronous invocations (cleanup worker, media processing): retried twice, then kept in .async-dead-letters.jsonl');
  say(`media storage (S3-compatible, bucket ${storage.bucket}): ${s3Endpoint}`);
  say(`mail (SES v2-compatible): every message sent is listed at ${mailUrl}/store`);
  say(`register: curl -s -X POST http://localhost:${port}/auth/register -H 'Content-Type: application/json' -d '{"name":"Hedy Lamarr","username":"hedy","email":"hedy@example.com","password":"frequency hopping"}'`);
  say('demo data: npm run seed');
  say('a token for an existing user: npm run token -- <username> [--scope logs:read]');
} catch (err) {
  process.stderr.write(`[aperture] ${err.message}\n`);
  await stop(1);
}
