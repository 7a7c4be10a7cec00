// One cold start: a fresh Node process loads a bundle and serves one request.
// argv: <bundle> <export> <event.json>. Prints { requireMs, firstMs, initMs, status, requests, undici, execArgv }.
// Nothing else is imported before the clock starts, so the bundle pays for its own modules.
// `requests`: the HTTP requests the first answer sent (here all DynamoDB's), counted on Node's
// own diagnostics channel, which loads nothing: a cold request that sends more than its warm
// row shows a data set the stream has not settled (scripts/bench/settle.mjs).
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { subscribe } from 'node:diagnostics_channel';

let requests = 0;
subscribe('http.client.request.start', () => { requests++; });

const [bundle, exportName, eventFile] = process.argv.slice(2);
const event = JSON.parse(readFileSync(eventFile, 'utf8'));
const context = {
  callbackWaitsForEmptyEventLoop: false, functionName: 'init', functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:init', memoryLimitInMB: '1024',
  awsRequestId: 'init', logGroupName: 'init', logStreamName: 'init', getRemainingTimeInMillis: () => 10_000,
  done() {}, fail() {}, succeed() {},
};
const require = createRequire(import.meta.url);
const t0 = performance.now();
const mod = require(bundle);
const t1 = performance.now();
const res = await mod[exportName](event, context);
const t2 = performance.now();
// Whether the process loaded Node's bundled undici: an http:// endpoint makes the SDK's first
// request load it, an https one does not (scripts/bench/tls.mjs).
const undici = process.moduleLoadList.some((m) => m.includes('undici/undici'));
// execArgv: the Node options it ran with (the deployed flags first: scripts/bench/node-flags.mjs).
process.stdout.write(`\n${JSON.stringify({ requireMs: t1 - t0, firstMs: t2 - t1, initMs: t2 - t0, status: res?.statusCode, requests, undici, execArgv: process.execArgv })}\n`);
process.exit(0);
