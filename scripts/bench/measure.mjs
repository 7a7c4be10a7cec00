// Calling a handler the way API Gateway + Lambda do, and turning the DynamoDB records of
// each call (installDbMetrics, below) into the benchmark's figures: latency, requests, round
// trips on the critical path, capacity, and the "bare" latency of the same requests sent
// directly, without the handler.
import * as ddb from '@aws-sdk/client-dynamodb';
import { transactWcu } from './capacity.mjs';

export const METRICS_SINK = Symbol.for('aperture.dbMetrics');
/** lib/db/client.ts hands its client to the function set under this symbol when it loads. */
const DB_CLIENT_HOOK = Symbol.for('aperture.dbClient');

/**
 * Records every command of each module-scope client loaded after this call (the bundles'
 * and lib's own: lib/db/client.ts), with its input as sent, its timing and the capacity it
 * consumed: `{ command, input, start, end, consumed, returned, error }` into
 * globalThis[METRICS_SINK]. Call it before the bundles or lib modules load.
 */
export function installDbMetrics() {
  globalThis[DB_CLIENT_HOOK] = (client) => {
    // Before the document client marshals: ask every command for its consumed capacity.
    client.middlewareStack.add((next) => async (args) => next({ ...args, input: { ...args.input, ReturnConsumedCapacity: 'TOTAL' } }),
      { step: 'initialize', name: 'apertureConsumedCapacity', priority: 'high' });
    // After serialization: one record per command (retries included in its time).
    client.middlewareStack.add((next, context) => async (args) => {
      const record = { command: String(context.commandName ?? 'unknown'), input: args.input, start: performance.now(), end: 0 };
      try {
        const res = await next(args);
        const out = res.output;
        record.consumed = out.ConsumedCapacity;
        // Items in the answer (BatchGet: over all tables), to price the keys that found none.
        record.returned = out.Responses ? Object.values(out.Responses).reduce((n, items) => n + items.length, 0) : out.Items?.length ?? (out.Item ? 1 : 0);
        return res;
      } catch (err) {
        record.error = err.name;
        throw err;
      } finally {
        record.end = performance.now();
        (globalThis[METRICS_SINK] ??= []).push(record);
      }
    }, { step: 'build', name: 'apertureDbMetrics', priority: 'low' });
  };
}
const READS = new Set(['GetItemCommand', 'BatchGetItemCommand', 'QueryCommand', 'ScanCommand', 'TransactGetItemsCommand']);

let seq = 0;

/** An API Gateway HTTP API (payload v2) event for a route key such as `GET /users/{identifier}`. */
export function apiEvent(routeKey, { params = {}, query, body, token, headers: extra = {} } = {}) {
  const [method, template] = routeKey.split(' ');
  const rawPath = template.replace(/\{([^}]+)\}/g, (_, k) => encodeURIComponent(params[k] ?? ''));
  const headers = { 'user-agent': 'aperture-bench' };
  for (const [k, v] of Object.entries(extra)) headers[k.toLowerCase()] = v;
  let raw;
  if (body !== undefined) {
    raw = JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  if (token) headers.authorization = `Bearer ${token}`;
  seq++;
  return {
    version: '2.0',
    routeKey,
    rawPath,
    rawQueryString: new URLSearchParams(query ?? {}).toString(),
    headers,
    queryStringParameters: query && Object.keys(query).length ? { ...query } : undefined,
    pathParameters: Object.keys(params).length ? { ...params } : undefined,
    requestContext: {
      accountId: '000000000000', apiId: 'bench', domainName: 'localhost', domainPrefix: 'localhost',
      http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'aperture-bench' },
      requestId: `bench-${seq}`, routeKey, stage: '$default', time: new Date().toUTCString(), timeEpoch: Date.now(),
    },
    body: raw,
    isBase64Encoded: false,
  };
}

export function lambdaContext() {
  return {
    callbackWaitsForEmptyEventLoop: false, functionName: 'bench', functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:bench', memoryLimitInMB: '1024',
    awsRequestId: `bench-${seq}`, logGroupName: 'bench', logStreamName: 'bench', getRemainingTimeInMillis: () => 10_000,
    done() {}, fail() {}, succeed() {},
  };
}

export const resetRecords = () => { globalThis[METRICS_SINK] = []; };
export const takeRecords = () => { const r = globalThis[METRICS_SINK] ?? []; globalThis[METRICS_SINK] = []; return r; };

/**
 * Depth of each request on the call's critical path: 1 + the deepest request that had
 * completed before it was sent. Requests sent together (Promise.all) share a depth.
 */
export function depths(records) {
  const sorted = [...records].sort((a, b) => a.start - b.start);
  const depth = new Map();
  for (const r of sorted) {
    let d = 0;
    for (const q of sorted) if (q !== r && q.end <= r.start && depth.has(q)) d = Math.max(d, depth.get(q));
    depth.set(r, d + 1);
  }
  return depth;
}

function capacityOf(record) {
  // DynamoDB Local misreports transactions (scripts/bench/capacity.mjs).
  if (record.command === 'TransactWriteItemsCommand') return { rcu: 0, wcu: transactWcu(record.input) };
  // It also charges nothing for a BatchGet key that finds no item; DynamoDB charges the minimum read.
  let missing = 0;
  if (record.command === 'BatchGetItemCommand') {
    for (const t of Object.values(record.input.RequestItems ?? {})) {
      const requested = t.Keys?.length ?? 0;
      missing += requested * (t.ConsistentRead ? 1 : 0.5);
    }
    const per = Object.values(record.input.RequestItems ?? {})[0]?.ConsistentRead ? 1 : 0.5;
    missing -= (record.returned ?? 0) * per;
  }
  const list = record.consumed === undefined ? [] : [].concat(record.consumed);
  let rcu = 0;
  let wcu = 0;
  for (const c of list) {
    const total = (c.CapacityUnits ?? 0);
    if (c.ReadCapacityUnits !== undefined || c.WriteCapacityUnits !== undefined) {
      rcu += c.ReadCapacityUnits ?? 0;
      wcu += c.WriteCapacityUnits ?? 0;
    } else if (READS.has(record.command)) rcu += total;
    else wcu += total;
  }
  return { rcu: rcu + Math.max(0, missing), wcu };
}

/** The figures of one call from its records. */
export function summarize(records) {
  const d = depths(records);
  let rcu = 0;
  let wcu = 0;
  for (const r of records) {
    const c = capacityOf(r);
    rcu += c.rcu;
    wcu += c.wcu;
  }
  return { dbCalls: records.length, dbRoundTrips: Math.max(0, ...d.values()), rcu, wcu, depth: d };
}

/** Invokes a handler once; the records are those of this call only. */
export async function invoke(handler, routeKey, request) {
  const event = apiEvent(routeKey, request);
  resetRecords();
  const t0 = performance.now();
  const res = await handler(event, lambdaContext());
  const ms = performance.now() - t0;
  const records = takeRecords();
  return { ms, status: res?.statusCode ?? 0, body: res?.body ?? '', records };
}

/** What a request asked for, in a few words: the table's keys or the index partition. */
function describe(r) {
  const v = (x) => (x && typeof x === 'object' ? Object.values(x)[0] : x);
  const i = r.input;
  if (i.Key) return `${v(i.Key.PK)} ${v(i.Key.SK)}`;
  if (i.KeyConditionExpression) {
    const vals = Object.values(i.ExpressionAttributeValues ?? {}).map(v);
    return `${i.IndexName ?? 'table'} ${vals[0]}${i.Limit ? ` limit ${i.Limit}` : ''}`;
  }
  if (i.RequestItems) {
    const keysOf = Object.values(i.RequestItems).flatMap((t) => t.Keys ?? []);
    const kinds = new Map();
    for (const k of keysOf) { const kind = `${String(v(k.SK)).split('#')[0]}`; kinds.set(kind, (kinds.get(kind) ?? 0) + 1); }
    return `${keysOf.length} keys (${[...kinds].map(([kind, n]) => `${n} ${kind}`).join(', ')})`;
  }
  if (i.TransactItems) return `${i.TransactItems.length} items`;
  return '';
}

/** The requests of one call in the order they left: depth, send and finish times, what. */
export function traceOf(routeKey, out, depth) {
  const t0 = Math.min(...out.records.map((r) => r.start));
  const lines = [`[trace] ${routeKey}: ${out.ms.toFixed(1)} ms, ${out.records.length} requests`];
  for (const r of [...out.records].sort((a, b) => a.start - b.start)) {
    lines.push(`[trace]   d${depth.get(r)} ${(r.start - t0).toFixed(1).padStart(6)} -> ${(r.end - t0).toFixed(1).padStart(6)}  ${r.command.replace('Command', '').padEnd(14)} ${describe(r)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Sends a call's recorded requests again, directly, with the same critical path. */
export async function replay(client, records, depth) {
  const levels = new Map();
  for (const r of records) {
    const d = depth.get(r);
    if (!levels.has(d)) levels.set(d, []);
    levels.get(d).push(r);
  }
  const t0 = performance.now();
  for (const d of [...levels.keys()].sort((a, b) => a - b)) {
    await Promise.all(levels.get(d).map((r) => {
      const Command = ddb[r.command];
      // A replayed conditional write usually fails its condition: the round trip is the same.
      return client.send(new Command(r.input)).catch((err) => { if (process.env.BENCH_DEBUG) process.stderr.write(`replay ${r.command}: ${err.name} ${err.message}\n`); });
    }));
  }
  return performance.now() - t0;
}

export function percentile(values, p) {
  if (!values.length) return 0;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
export const median = (values) => percentile(values, 50);
const round = (n, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * Runs one scenario: `warmup` calls, then `iterations` measured calls, each on the
 * request the scenario makes for that call (fresh targets for mutations), then the bare
 * replay of each measured call's requests right after it.
 */
export async function runScenario({ scenario, handler, routeKey, ctx, warmup, iterations, rawClient }) {
  const calls = [];
  for (let k = 0; k < warmup + iterations; k++) {
    const request = await scenario.request(ctx, k);
    const out = await invoke(handler, routeKey, request);
    const expected = scenario.status ?? 200;
    if (out.status !== expected) {
      return { status: 'error', message: `call ${k} answered ${out.status} (expected ${expected}): ${out.body.slice(0, 300)}` };
    }
    if (k < warmup) continue;
    const call = { ms: out.ms, ...summarize(out.records) };
    // The read's floor, from its own answer (scripts/bench/scenarios.mjs).
    if (scenario.floorRcu) call.floor = scenario.floorRcu(JSON.parse(out.body));
    if (process.env.BENCH_TRACE && k === warmup) process.stderr.write(traceOf(routeKey, out, call.depth));
    // Replayed right away, so that both figures see the same load on the machine.
    call.bare = await replay(rawClient, out.records, call.depth);
    calls.push(call);
  }
  const bare = calls.map((c) => c.bare);
  // A scenario whose calls differ by design (a session: one computes, the others are served) reports means.
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
  const typical = scenario.average ? mean : median;
  return {
    status: 'ok',
    p50Ms: round(median(calls.map((c) => c.ms))),
    p95Ms: round(percentile(calls.map((c) => c.ms), 95)),
    dbCalls: round(typical(calls.map((c) => c.dbCalls))),
    dbRoundTrips: round(typical(calls.map((c) => c.dbRoundTrips))),
    rcu: round(typical(calls.map((c) => c.rcu))),
    wcu: round(typical(calls.map((c) => c.wcu))),
    ...(scenario.average ? { average: true, maxDbCalls: Math.max(...calls.map((c) => c.dbCalls)), maxRcu: round(Math.max(...calls.map((c) => c.rcu))) } : {}),
    bareP50Ms: round(median(bare)),
    ...(scenario.floorRcu ? { floorRcu: round(median(calls.map((c) => c.floor))) } : {}),
  };
}
