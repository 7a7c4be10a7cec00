#!/usr/bin/env node
// What Aperture costs a month on AWS (issue 47): the benchmark's measured rows (requests, read
// and write units, p50 as the billed duration) times a usage mix (scripts/bench/usage-mix.mjs)
// times on-demand prices (scripts/bench/prices.mjs). A pure function of its inputs, so that
// `node scripts/bench/cost.mjs <bench.json>` prices a saved run again without running it;
// `npm run bench` calls billOf at its end (JSON `cost`).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { USAGE_MIX } from './usage-mix.mjs';
import { PRICES } from './prices.mjs';

export const SERVICES = ['DynamoDB', 'Lambda', 'API Gateway', 'CloudWatch Logs', 'X-Ray', 'S3', 'CloudFront'];

// The repository, found lazily: the tests load this module as CommonJS, without import.meta.
const repoRoot = () => fileURLToPath(new URL('../..', import.meta.url));
/** A route's shape without its variant and parameter names: `POST /users/follow/{}`. */
const shapeOf = (key) => key.replace(/ \(.*\)$/, '').replace(/\{[^}]*\}/g, '{}');

/**
 * What the bill reads from the deployment's settings: the functions' memory, the API's access
 * log format, and the share of requests whose DynamoDB calls are logged (the deployed stages'
 * LOG_DB_CALLS: the last `logDbCalls` default of serverless.yml's params, the `default` stage's).
 */
export function deployment(dir = repoRoot()) {
  const yml = readFileSync(join(dir, 'serverless.yml'), 'utf8');
  const shares = [...yml.matchAll(/^\s+logDbCalls: \$\{env:LOG_DB_CALLS, '([\d.]+)'\}/gm)].map((m) => Number(m[1]));
  return { memory: functionMemory(dir), accessLogFormat: /^\s+format: '(.*)'$/m.exec(yml)?.[1] ?? '', dbCallLogShare: shares.at(-1) ?? 1 };
}

/**
 * The memory of every HTTP function by route shape, from serverless.yml's provider default and
 * the functions' own `memorySize` (functions/<area>/functions.json), as deployment sets them.
 */
export function functionMemory(dir = repoRoot()) {
  const yml = readFileSync(join(dir, 'serverless.yml'), 'utf8');
  const fallback = Number(/^ {2}memorySize: (\d+)/m.exec(yml)?.[1] ?? 1024);
  const byShape = {};
  for (const area of readdirSync(join(dir, 'functions'))) {
    let defs;
    try {
      defs = JSON.parse(readFileSync(join(dir, 'functions', area, 'functions.json'), 'utf8'));
    } catch {
      continue;
    }
    for (const def of Object.values(defs)) {
      for (const ev of def.events ?? []) {
        if (ev.httpApi?.method) byShape[shapeOf(`${ev.httpApi.method} ${ev.httpApi.path}`)] = def.memorySize ?? fallback;
      }
    }
  }
  return { default: fallback, byShape };
}

/**
 * The bytes one HTTP request writes to CloudWatch Logs on a deployed stage, from the lines the
 * code and the platform write, filled with typical values: Lambda's START, END and REPORT (with
 * X-Ray's line), our `request` line (lib/http/request-log.ts), `dbCalls` `db_call` lines (one per
 * DynamoDB request of a logged request: LOG_DB_CALLS, lib/db/metrics.ts; a fraction is the
 * expected count at a sampling share), and the HTTP API's access log line in serverless.yml's
 * format. Each event also meters `bytesPerEventOverhead`.
 */
export function logBytesPerRequest(dbCalls, accessLogFormat, overhead = PRICES.cloudwatchLogs.bytesPerEventOverhead) {
  const uuid = '8f5e1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
  const xray = '1-6749a1b2-0f1e2d3c4b5a69788796a5b4';
  const common = { level: 'INFO', traceId: '4bf92f3577b34da6a3ce929d0e0e4736', xrayTraceId: xray, time: '2026-11-29T08:52:30.133Z' };
  const platform = [
    `START RequestId: ${uuid} Version: $LATEST`,
    `END RequestId: ${uuid}`,
    `REPORT RequestId: ${uuid}\tDuration: 23.45 ms\tBilled Duration: 24 ms\tMemory Size: 1024 MB\tMax Memory Used: 98 MB\t\nXRAY TraceId: ${xray}\tSegmentId: 3a4b5c6d7e8f9a0b\tSampled: true\t`,
  ];
  const request = JSON.stringify({ ...common, event: 'request', route: 'GET /users/{identifier}', status: 200, apiRequestId: 'C7xYzAbCdEfGhIj=', lambdaRequestId: uuid });
  const dbCall = JSON.stringify({ ...common, event: 'db_call', command: 'QueryCommand', table: 'aperture-prod', index: 'GSI1', ms: 4.2, consumed: { TableName: 'aperture-prod', CapacityUnits: 2.5 } });
  const accessLine = accessLogFormat.replace(/\$context\.[a-zA-Z.]+/g, (m) => (/Latency|status|Status|Length/.test(m) ? '23' : /Error|error/.test(m) ? '-' : /requestTime/.test(m) ? '29/Nov/2026:08:52:30 +0000' : 'C7xYzAbCdEfGhIj='));
  const bytes = (l) => Buffer.byteLength(l) + 1 + overhead;
  return [...platform, request, accessLine].reduce((n, l) => n + bytes(l), 0) + dbCalls * bytes(dbCall);
}

/** The rows a route is billed with: its units from the largest scale, its time the lower p50 over scales (see below). */
function measuredRow(result, key) {
  const rows = result.scales.map((s) => s.endpoints[key]).filter((e) => e && e.status === 'ok');
  if (!rows.length) return undefined;
  const last = rows[rows.length - 1];
  // The benchmark's machine is shared and loaded (load average 15 to 25 on 2 cores): its noise
  // only adds time, so the lower of the scales' p50s is the nearer to the work itself.
  return { ...last, billedMs: Math.ceil(Math.min(...rows.map((r) => r.p50Ms))) };
}

const tiered = (amount, tiers, per, unit) => {
  let cost = 0;
  let from = 0;
  for (const t of tiers) {
    if (amount <= from) break;
    cost += ((Math.min(amount, t.upTo) - from) / unit) * t[per];
    from = t.upTo;
  }
  return cost;
};

const round = (n) => Math.round(n * 100) / 100;

/**
 * The monthly bill of one usage mix at each of its daily-user counts.
 * Returns { mix, perMonth: { '100k', '1M' }, byService: { '100k': { DynamoDB, ... } }, byRoute:
 * { '100k': { route: total } }, top: { '100k': [{ route, service, cost }] }, missing, notes }.
 */
export function billOf(result, mix = USAGE_MIX, prices = PRICES, { memory, accessLogFormat, dbCallLogShare = 1 } = deployment()) {
  const a = mix.assumptions;
  const fanoutMsPerFollower = (() => {
    const f = result.feed?.fanout?.filter((x) => x.followers > 0).at(-1);
    return f ? f.ms / f.followers : 2.2;
  })();
  const perDayCost = [];
  const missing = [];
  for (const r of mix.routes) {
    const e = measuredRow(result, r.route);
    if (!e) {
      missing.push(r.route);
      continue;
    }
    const memMb = memory.byShape[shapeOf(r.route)] ?? memory.default;
    const stream = a.streamWorkPerWrite[r.route];
    const followers = a.followersPerPoster.value;
    const c = {}; // cost of one call, by service, and the quantities the tiers need
    const streamWcu = stream ? stream.wcu + (stream.perFollowerWcu ?? 0) * followers : 0;
    const streamRcu = stream?.rcu ?? 0;
    c.DynamoDB = ((e.rcu + streamRcu) * prices.dynamodb.perMillionReadUnits + (e.wcu + streamWcu) * prices.dynamodb.perMillionWriteUnits) / 1e6;
    let gbSeconds = (e.billedMs / 1000) * (memMb / 1024);
    let invocations = 1;
    let logBytes = logBytesPerRequest(e.dbCalls * dbCallLogShare, accessLogFormat);
    if (stream) {
      const ms = a.streamConsumer.msPerRecord + (stream.perFollowerWcu ? followers * fanoutMsPerFollower : 0);
      gbSeconds += ms / 1000;
      invocations += 1 / a.streamConsumer.recordsPerInvocation;
      // The consumer's lines: its REPORT lines and one db_call per DynamoDB request (a write
      // batch of 25 for the fan-out's entries).
      logBytes += logBytesPerRequest((Math.ceil(streamWcu / 25) + 2) * dbCallLogShare, accessLogFormat) / a.streamConsumer.recordsPerInvocation;
    }
    let s3 = 0;
    if (r.route === 'POST /media/uploads') {
      gbSeconds += (a.mediaProcess.ms / 1000) * (a.mediaProcess.memoryMb / 1024);
      invocations += 1;
      s3 += (a.s3RequestsPerUpload.put * prices.s3.perThousandPut + a.s3RequestsPerUpload.get * prices.s3.perThousandGet) / 1000;
    }
    c.Lambda = gbSeconds * prices.lambda.perGbSecond + (invocations * prices.lambda.perMillionRequests) / 1e6;
    c['X-Ray'] = (a.xraySampled.value * prices.xray.perMillionTracesRecorded) / 1e6;
    const logs = logBytes / 1024 ** 3;
    c['CloudWatch Logs'] = logs * prices.cloudwatchLogs.ingestionPerGb + logs * a.logCompression.value * prices.cloudwatchLogs.storagePerGbMonth;
    const images = Object.entries(r.images ?? {});
    const imageCount = images.reduce((n, [, k]) => n + k, 0);
    const imageGb = images.reduce((n, [v, k]) => n + k * a.imageBytes.value[v], 0) / 1024 ** 3;
    s3 += (imageCount * a.cdnMissRatio.value * prices.s3.perThousandGet) / 1000;
    c.S3 = s3;
    // Stored items: what a creating route and its stream reactions keep, held storageMonths.
    const kept = (a.dynamoStoredBytes.value[r.route] ?? 0) + (stream?.perFollowerWcu && r.route === 'POST /posts/create' ? followers * a.dynamoStoredBytes.feedEntryBytes : 0);
    const dynamoGbStored = kept / 1024 ** 3;
    const s3GbStored = r.route === 'POST /media/uploads' ? a.storedBytesPerUpload.value / 1024 ** 3 : 0;
    perDayCost.push({ route: r.route, perDay: r.perDay, c, apiRequests: 1, imageGb, imageCount, dynamoGbStored, s3GbStored, memMb, billedMs: e.billedMs, rcu: e.rcu + streamRcu, wcu: e.wcu + streamWcu, logBytes: Math.round(logBytes) });
  }

  const out = { mix: mixSummary(mix), perMonth: {}, byService: {}, byRoute: {}, top: {}, missing, perCall: {}, prices: sources(prices) };
  for (const row of perDayCost) {
    out.perCall[row.route] = { memoryMb: row.memMb, billedMs: row.billedMs, rcu: row.rcu, wcu: row.wcu, logBytes: row.logBytes, usd: Object.values(row.c).reduce((x, y) => x + y, 0) };
  }
  for (const [label, dau] of Object.entries(mix.dailyActiveUsers)) {
    const calls = (row) => dau * row.perDay * mix.daysPerMonth;
    const cells = []; // { route, service, cost }
    for (const row of perDayCost) for (const [service, unit] of Object.entries(row.c)) cells.push({ route: row.route, service, cost: unit * calls(row) });
    // Tiered prices: priced on the month's totals, shared among the routes by their volume.
    const share = (field, service, price) => {
      const sum = perDayCost.reduce((n, row) => n + row[field] * calls(row), 0);
      if (!sum) return;
      const cost = price(sum);
      for (const row of perDayCost) if (row[field]) cells.push({ route: row.route, service, cost: (cost * row[field] * calls(row)) / sum });
      return sum;
    };
    share('apiRequests', 'API Gateway', (n) => tiered(n, prices.apiGateway.tiers, 'perMillion', 1e6));
    share('imageGb', 'CloudFront', (gb) => tiered(gb, prices.cloudfront.tiers, 'perGb', 1));
    share('imageCount', 'CloudFront', (n) => (n / 1e4) * prices.cloudfront.perTenThousandHttpsRequests);
    const months = a.storageMonths.value;
    share('dynamoGbStored', 'DynamoDB', (gb) => gb * months * prices.dynamodb.storagePerGbMonth);
    share('s3GbStored', 'S3', (gb) => gb * months * prices.s3.storagePerGbMonth);

    const byService = Object.fromEntries(SERVICES.map((s) => [s, 0]));
    const byRoute = {};
    const pairs = {};
    for (const { route, service, cost } of cells) {
      byService[service] += cost;
      byRoute[route] = (byRoute[route] ?? 0) + cost;
      pairs[`${route}|${service}`] = (pairs[`${route}|${service}`] ?? 0) + cost;
    }
    out.perMonth[label] = round(Object.values(byService).reduce((x, y) => x + y, 0));
    out.byService[label] = Object.fromEntries(Object.entries(byService).map(([k, v]) => [k, round(v)]));
    out.byRoute[label] = Object.fromEntries(Object.entries(byRoute).sort((x, y) => y[1] - x[1]).map(([k, v]) => [k, round(v)]));
    out.top[label] = Object.entries(pairs).sort((x, y) => y[1] - x[1]).slice(0, 5).map(([k, v]) => {
      const [route, service] = k.split('|');
      return { route, service, cost: round(v) };
    });
  }
  return out;
}

function mixSummary(mix) {
  return {
    dailyActiveUsers: mix.dailyActiveUsers,
    daysPerMonth: mix.daysPerMonth,
    perUserPerDay: Object.fromEntries(mix.routes.map((r) => [r.route, r.perDay])),
    assumptions: Object.fromEntries(Object.entries(mix.assumptions).map(([k, v]) => [k, v.value ?? v])),
  };
}

const sources = (prices) => Object.fromEntries(Object.entries(prices).filter(([, v]) => v?.source).map(([k, v]) => [k, v.source]));

const usd = (n) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 0 })}`;

/** The bill as Markdown tables: by service, the top routes, the top five route-service contributors. */
export function costTable(cost, { routes = 10 } = {}) {
  const labels = Object.keys(cost.perMonth);
  const out = [`| service | ${labels.map((l) => `${l} DAU / month`).join(' | ')} |`, `|---|${labels.map(() => '---:|').join('')}`];
  for (const s of SERVICES) out.push(`| ${s} | ${labels.map((l) => usd(cost.byService[l][s])).join(' | ')} |`);
  out.push(`| **total** | ${labels.map((l) => `**${usd(cost.perMonth[l])}**`).join(' | ')} |`);
  const last = labels.at(-1);
  out.push('', `| route (its functions, stream work, logs, CDN) | ${labels.map((l) => `${l} / month`).join(' | ')} | share |`, `|---|${labels.map(() => '---:|').join('')}---:|`);
  for (const route of Object.keys(cost.byRoute[last]).slice(0, routes)) {
    out.push(`| \`${route}\` | ${labels.map((l) => usd(cost.byRoute[l][route] ?? 0)).join(' | ')} | ${((100 * cost.byRoute[last][route]) / cost.perMonth[last]).toFixed(1)}% |`);
  }
  out.push('', `Top five contributors at ${last} DAU (route, service):`, '');
  cost.top[last].forEach((t, i) => out.push(`${i + 1}. \`${t.route}\` on ${t.service}: ${usd(t.cost)} a month (${((100 * t.cost) / cost.perMonth[last]).toFixed(1)}%)`));
  if (cost.missing.length) out.push('', `Not priced (no measured row): ${cost.missing.join(', ')}`);
  return out.join('\n');
}

if (import.meta.url && process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write('usage: node scripts/bench/cost.mjs <bench.json> [--json]\n');
    process.exit(2);
  }
  const cost = billOf(JSON.parse(readFileSync(file, 'utf8')));
  process.stdout.write(process.argv.includes('--json') ? `${JSON.stringify(cost, null, 2)}\n` : `${costTable(cost)}\n`);
}
