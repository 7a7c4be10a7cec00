// The bill of issue 47 (scripts/bench/cost.mjs): measured rows times a usage mix times prices,
// checked against figures worked out by hand, and the mix kept to rows the benchmark measures.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
/* eslint-disable @typescript-eslint/no-require-imports */
const { billOf, deployment, functionMemory, logBytesPerRequest, costTable, SERVICES } = require('../../scripts/bench/cost.mjs');
const { USAGE_MIX } = require('../../scripts/bench/usage-mix.mjs');
const { PRICES } = require('../../scripts/bench/prices.mjs');
const { scenarios, scenarioKey } = require('../../scripts/bench/scenarios.mjs');
/* eslint-enable @typescript-eslint/no-require-imports */

const root = resolve(__dirname, '../..');
const deployed = deployment(root);
const row = (fields: Record<string, number>) => ({ status: 'ok', p95Ms: 1, dbRoundTrips: 1, dbCalls: 2, rcu: 0, wcu: 0, ...fields });
const mixOf = (routes: unknown[], dau: Record<string, number> = { '1k': 1000 }) => ({ ...USAGE_MIX, dailyActiveUsers: dau, daysPerMonth: 30, routes });
const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);

describe('billOf', () => {
  const result = { scales: [{ name: '1x', endpoints: { 'GET /posts/{post_id}': row({ p50Ms: 30, rcu: 20 }) } }, { name: '10x', endpoints: { 'GET /posts/{post_id}': row({ p50Ms: 9.2, rcu: 20 }) } }] };
  const bill = billOf(result, mixOf([{ route: 'GET /posts/{post_id}', perDay: 2 }]), PRICES, deployed);

  it('prices a route\'s read units, its requests and its GB-seconds at the lower p50 over the scales, rounded up to the millisecond', () => {
    // 1,000 users x 2 a day x 30 days = 60,000 calls.
    expect(bill.byService['1k'].DynamoDB).toBe(0.15); // 60,000 x 20 RCU x $0.125 / million
    expect(bill.byService['1k']['API Gateway']).toBe(0.06); // 60,000 x $1.00 / million
    // 60,000 x 10 ms x 1 GB x $0.0000133334 + 60,000 x $0.20 / million = 0.0080 + 0.012
    expect(bill.byService['1k'].Lambda).toBe(0.02);
    expect(bill.perCall['GET /posts/{post_id}']).toMatchObject({ billedMs: 10, memoryMb: 1024, rcu: 20 });
  });

  it('adds up: the services and the routes each make the month', () => {
    expect(Object.keys(bill.byService['1k'])).toEqual(SERVICES);
    expect(sum(bill.byService['1k'])).toBeCloseTo(bill.perMonth['1k'], 1);
    expect(sum(bill.byRoute['1k'])).toBeCloseTo(bill.perMonth['1k'], 1);
  });

  it('applies the API Gateway tiers to the month\'s total: 360 million requests are 300 at $1.00 and 60 at $0.90', () => {
    const big = billOf(result, mixOf([{ route: 'GET /posts/{post_id}', perDay: 1 }], { '12M': 12_000_000 }), PRICES, deployed);
    expect(big.byService['12M']['API Gateway']).toBe(354);
  });

  it('bills a function at its own memory size', () => {
    const memory = { default: 1024, byShape: { 'GET /posts/{}': 2048 } };
    const doubled = billOf(result, mixOf([{ route: 'GET /posts/{post_id}', perDay: 2 }], { '1M': 1_000_000 }), PRICES, { ...deployed, memory });
    const single = billOf(result, mixOf([{ route: 'GET /posts/{post_id}', perDay: 2 }], { '1M': 1_000_000 }), PRICES, deployed);
    const requests = (60e6 * PRICES.lambda.perMillionRequests) / 1e6;
    expect(doubled.byService['1M'].Lambda - requests).toBeCloseTo(2 * (single.byService['1M'].Lambda - requests), 1);
  });

  it('charges a post its fan-out: one write unit per follower, on top of its own', () => {
    const posts = { scales: [{ name: '1x', endpoints: { 'POST /posts/create': row({ p50Ms: 20, wcu: 14, rcu: 1 }) } }] };
    const withFollowers = (n: number) => billOf(posts, {
      ...mixOf([{ route: 'POST /posts/create', perDay: 1 }]),
      assumptions: { ...USAGE_MIX.assumptions, followersPerPoster: { value: n } },
    }, PRICES, deployed);
    const stream = USAGE_MIX.assumptions.streamWorkPerWrite['POST /posts/create'];
    expect(withFollowers(100).perCall['POST /posts/create'].wcu).toBe(14 + stream.wcu + 100);
    expect(withFollowers(1000).perCall['POST /posts/create'].wcu).toBe(14 + stream.wcu + 1000);
  });

  it('charges the CDN for the images a route shows, by variant', () => {
    const feed = { scales: [{ name: '1x', endpoints: { 'GET /posts/feed': row({ p50Ms: 20, rcu: 56 }) } }] };
    const bill10 = billOf(feed, mixOf([{ route: 'GET /posts/feed', perDay: 1, images: { '1080': 10 } }]), PRICES, deployed);
    // 30,000 pages x 10 images x the mix's 1080 bytes (0.91 x 150 KiB: 39.1 GiB) at $0.085, and
    // 300,000 requests at $0.01 per 10,000.
    const bytes1080 = USAGE_MIX.assumptions.imageBytes.value['1080'];
    expect(bytes1080).toBeCloseTo(0.91 * 150 * 1024, 0);
    expect(bill10.byService['1k'].CloudFront).toBeCloseTo((300_000 * bytes1080 / 1024 ** 3) * 0.085 + 0.3, 1);
    const none = billOf(feed, mixOf([{ route: 'GET /posts/feed', perDay: 1 }]), PRICES, deployed);
    expect(none.byService['1k'].CloudFront).toBe(0);
  });

  it('names the mix\'s routes that the result has no row for, and prices the rest', () => {
    const partial = billOf(result, mixOf([{ route: 'GET /posts/{post_id}', perDay: 1 }, { route: 'GET /posts/feed', perDay: 1 }]), PRICES, deployed);
    expect(partial.missing).toEqual(['GET /posts/feed']);
    expect(costTable(partial)).toContain('Not priced (no measured row): GET /posts/feed');
  });
});

describe('the usage mix', () => {
  it('names only rows the benchmark measures, each with its reason', () => {
    const keys = new Set(scenarios.map(scenarioKey));
    for (const r of USAGE_MIX.routes) {
      expect(keys).toContain(r.route);
      expect(r.why.length).toBeGreaterThan(10);
    }
    for (const route of Object.keys(USAGE_MIX.assumptions.streamWorkPerWrite).filter((k) => k !== 'why')) expect(keys).toContain(route);
  });

  it('gives every price its source and date', () => {
    for (const [, p] of Object.entries(PRICES).filter(([, v]) => typeof v === 'object')) expect((p as { source: string }).source).toMatch(/AWS .*us-east-1|AWS .*United States/);
    for (const [, p] of Object.entries(PRICES).filter(([, v]) => typeof v === 'object')) expect((p as { source: string }).source).toMatch(/as listed \d{4}-\d{2}/);
  });
});

describe('what the bill reads from the deployment', () => {
  it('takes each function\'s memory from its own memorySize, else serverless.yml\'s default', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bill-'));
    writeFileSync(join(dir, 'serverless.yml'), 'provider:\n  memorySize: 512\n');
    mkdirSync(join(dir, 'functions', 'media'), { recursive: true });
    writeFileSync(join(dir, 'functions', 'media', 'functions.json'), JSON.stringify({
      a: { events: [{ httpApi: { method: 'GET', path: '/media/{media_id}' } }] },
      b: { memorySize: 2048, events: [{ httpApi: { method: 'POST', path: '/media/uploads' } }] },
    }));
    expect(functionMemory(dir)).toEqual({ default: 512, byShape: { 'GET /media/{}': 512, 'POST /media/uploads': 2048 } });
    expect(functionMemory(root).byShape['GET /posts/feed']).toBe(1024);
  });

  it('sizes a request\'s log lines: one db_call line per DynamoDB request, the access log line in serverless.yml\'s format', () => {
    expect(deployed.accessLogFormat).toContain('$context.requestId');
    const none = logBytesPerRequest(0, deployed.accessLogFormat);
    const seven = logBytesPerRequest(7, deployed.accessLogFormat);
    expect((seven - none) % 7).toBe(0);
    expect((seven - none) / 7).toBeGreaterThan(200);
    expect(none).toBeGreaterThan(logBytesPerRequest(0, ''));
  });

  it('bills db_call lines for the deployed stages\' share of requests only (LOG_DB_CALLS)', () => {
    expect(deployed.dbCallLogShare).toBe(0.05);
    const result = { scales: [{ endpoints: { 'GET /posts/{post_id}': { status: 'ok', p50Ms: 10, rcu: 2, wcu: 0, dbCalls: 20 } } }] };
    const logs = (share: number) => billOf(result, mixOf([{ route: 'GET /posts/{post_id}', perDay: 1 }], { '1M': 1_000_000 }), PRICES, { ...deployed, dbCallLogShare: share }).byService['1M']['CloudWatch Logs'];
    const perLine = logBytesPerRequest(1, deployed.accessLogFormat) - logBytesPerRequest(0, deployed.accessLogFormat);
    // 30 million requests a month: at 5% of them, 1 db_call line each on average instead of 20.
    expect(logs(1) - logs(0.05)).toBeCloseTo(((30_000_000 * 19 * perLine) / 1024 ** 3) * (PRICES.cloudwatchLogs.ingestionPerGb + USAGE_MIX.assumptions.logCompression.value * PRICES.cloudwatchLogs.storagePerGbMonth), 0);
    expect(logs(0.05)).toBeLessThan(logs(1));
  });
});
