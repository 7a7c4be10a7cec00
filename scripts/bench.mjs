#!/usr/bin/env node
// `npm run bench -- --out <file>`: the performance benchmark (docs/PERFORMANCE.md).
// Starts its own DynamoDB Local, bundles every function as deployment does, loads the 1x
// and 10x data sets, measures every endpoint of the contract through its real bundled
// handler (in process, with warm-up), measures the cold start of every bundle in fresh
// processes, prints the tables and the target checks, prices the month of a usage mix
// (scripts/bench/cost.mjs: JSON `cost`), and writes the JSON result.
//
// Options: --out <file>  --markdown <file>  --scales 1x,10x (none: only the hot post and the feed's rows)  --iterations 30  --warmup 200  --init-runs 5
//          --only <text> (endpoints whose route contains it)  --no-init (skip cold starts)
//          --init-only <names> (cold starts of these functions only, comma-separated, beside the baseline)
//          --init-seed <n> (the seed of the cold starts' order, a shuffle per round: scripts/bench/order.mjs; default 19)
//          --no-feed (skip the home feed's and the notifications' own rows: page cost by following
//          count, fan-out, create to visible; a notifications page at 10 and 100,000 stored)
//          --no-hot (skip the hot post: 500 users like one post, 50 at a time)
//          --init-tls (cold starts reach DynamoDB Local over TLS, as functions reach DynamoDB in
//          AWS: scripts/bench/tls.mjs; JSON initMode "tls", else "http")
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ensureTable, localClient, startDynamoLocal } from './lib/local-dynamodb.mjs';
import { bundle, checkEsbuildSettings, discoverFunctions, routeParams, routeShape } from './bench/build.mjs';
import { PASSWORD, SCALES, buildDataset } from './bench/dataset.mjs';
import { loadDataset, loaderClient } from './bench/loader.mjs';
import { apiEvent, installDbMetrics, median, runScenario } from './bench/measure.mjs';
import { namedIn, scenarioContext, scenarioKey, scenarios } from './bench/scenarios.mjs';
import { bundleTable, checks, endpointTable, markdownTables } from './bench/report.mjs';
import { benchFeed, feedTable } from './bench/feed.mjs';
import { benchNotifications, notificationsTable } from './bench/notifications.mjs';
import { benchLive, liveTable } from './bench/live.mjs';
import { benchHotPost, hotPostTable } from './bench/hot-post.mjs';
import { benchHotTag, benchTagPage, hotTagTable } from './bench/hot-tag.mjs';
import { settleAfterWrite, settleFeeds, settleRecentIds, settleRecentLikers } from './bench/settle.mjs';
import { makeCertificate, startTlsProxy } from './bench/tls.mjs';
import { coldStartNodeArgs, deployedNodeFlags } from './bench/node-flags.mjs';
import { roundOrders } from './bench/order.mjs';
import { overheadTable, warmMedian, withOverheads } from './bench/overhead.mjs';
import { billOf, costTable } from './bench/cost.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const say = (msg) => process.stderr.write(`[bench] ${msg}\n`);

function options(argv) {
  const o = { scales: '1x,10x', iterations: 30, warmup: 200, 'init-runs': 5, init: true, feed: true, hot: true, tls: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--no-init') o.init = false;
    else if (a === '--no-feed') o.feed = false;
    else if (a === '--no-hot') o.hot = false;
    else if (a === '--init-tls') o.tls = true;
    else if (a.startsWith('--')) o[a.slice(2)] = argv[++i];
  }
  return { ...o, scales: String(o.scales).split(',').filter((n) => n && n !== 'none'), iterations: Number(o.iterations), warmup: Number(o.warmup), initRuns: Number(o['init-runs']), initSeed: Number(o['init-seed'] ?? 19) };
}

const opts = options(process.argv.slice(2));
const TABLE = 'aperture-bench';
const work = join(root, '.bench');
const runTag = randomBytes(3).toString('hex');
const initOnly = opts['init-only'] ? String(opts['init-only']).split(',') : undefined;
const selected = scenarios.filter((s) => !opts.only || scenarioKey(s).includes(opts.only));

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const started = performance.now();

say('starting DynamoDB Local');
let dynamo = await startDynamoLocal();
/**
 * An empty table on a DynamoDB Local of its own, on the same port (the bundles' clients keep
 * their endpoint). Not DeleteTable and CreateTable: on DynamoDB Local a table created again
 * under the same name writes 30 times slower than before while the deleted one's stream is
 * kept (measured 2026-11-26: 3,100 items/s before, 105 after; the 10x scale's load then did
 * not finish in 40 minutes).
 */
async function freshTable() {
  const port = dynamo.port;
  await dynamo.stop();
  dynamo = await startDynamoLocal({ port });
  await ensureTable(dynamo.endpoint, TABLE);
}
Object.assign(process.env, {
  STAGE: 'local', TABLE_NAME: TABLE, DYNAMODB_ENDPOINT: dynamo.endpoint, AWS_REGION: process.env.AWS_REGION || 'us-east-1',
  AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', AWS_NODEJS_CONNECTION_REUSE_ENABLED: '1',
});
const childEnv = { ...process.env };
// Every bundle required from here on records its DynamoDB requests (the cold-start processes do not).
installDbMetrics();
const raw = localClient(dynamo.endpoint);
const sessions = loaderClient(dynamo.endpoint);

try {
  for (const p of checkEsbuildSettings(root)) say(`WARNING esbuild settings differ: ${p}`);

  // Bundles: every function as deployment builds it, the baseline, and the loader's lib.
  say('bundling');
  const functions = discoverFunctions(root);
  const built = new Map();
  for (const fn of functions) {
    if (!fn.file || built.has(fn.name)) continue;
    built.set(fn.name, { ...fn, ...(await bundle(root, fn.file, join(work, 'functions', `${fn.name}.js`))) });
  }
  const baseline = await bundle(root, 'scripts/bench/baseline.ts', join(work, 'baseline.js'));
  const lib = require((await bundle(root, 'scripts/bench/lib-entry.ts', join(work, 'lib.js'))).outfile);
  // A new session of a user, written outside the measured call (refresh, logout and the
  // deletion of a session each need a fresh one).
  const startSession = async (userId) => {
    const s = lib.newSession({ id: userId }, 'benchmark');
    await sessions.send(new PutCommand({ TableName: TABLE, Item: s.item }));
    return { ...(await lib.issue(s.item, s.refreshToken)), sessionId: s.item.id };
  };

  // In process, each function's own bundle: what is measured is what deploys.
  const byRoute = new Map();
  for (const fn of functions) {
    const b = built.get(fn.name);
    if (b) byRoute.set(routeShape(fn.route), { ...b, route: fn.route, handler: require(b.outfile)[fn.exportName] });
  }

  // The contract's parameter names, renamed to the function's own, by position.
  const withFunctionParams = (s, fn) => {
    const names = routeParams(fn.route);
    const contractNames = routeParams(s.route);
    return {
      ...s,
      request: async (c, k) => {
        const req = await s.request(c, k);
        if (!req.params) return req;
        return { ...req, params: Object.fromEntries(contractNames.map((n, i) => [names[i] ?? n, req.params[n]])) };
      },
    };
  };

  const result = { scales: [], bundles: {}, baseline: undefined };
  const initEvents = new Map();
  // What the cold-start requests noted so far name, kept until another is noted.
  let named = { n: -1, set: new Set() };

  // Cold starts: every bundle (and the baseline) in fresh Node processes, serving the requests
  // noted on the first data set, while it is loaded (called once, from the scale loop).
  const measureColdStarts = async (ds) => {
    say(`measuring cold starts${opts.tls ? ' over TLS' : ''}`);
    const cert = opts.tls ? makeCertificate(join(work, 'tls')) : undefined;
    const proxy = cert ? await startTlsProxy(cert, dynamo.port) : undefined;
    const env = proxy ? { ...childEnv, DYNAMODB_ENDPOINT: proxy.endpoint, NODE_EXTRA_CA_CERTS: cert.cert } : childEnv;
    try {
      await coldStarts(ds, env);
    } finally {
      proxy?.stop();
    }
    result.initMode = opts.tls ? 'tls' : 'http';
  };
  const coldStarts = async (ds, env) => {
    result.initNodeFlags = deployedNodeFlags();
    const coldStart = (outfile, exportName, event) => {
      const file = join(work, 'event.json');
      writeFileSync(file, JSON.stringify(event));
      // The flags a deployed function's runtime starts with (resources/node-flags/node-flags), for
      // the baseline and every bundle alike; then BENCH_INIT_NODE_ARGS, Node options of this run's
      // own (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to see where a cold start goes).
      const nodeArgs = coldStartNodeArgs(process.env.BENCH_INIT_NODE_ARGS);
      const out = execFileSync(process.execPath, [...nodeArgs, join(root, 'scripts/bench/init-child.mjs'), outfile, exportName, file], { env, encoding: 'utf8' });
      return JSON.parse(out.trim().split('\n').pop());
    };
    const summarize = (runs) => ({
      initMs: Math.round(median(runs.map((r) => r.initMs)) * 10) / 10,
      requireMs: Math.round(median(runs.map((r) => r.requireMs)) * 10) / 10,
      firstMs: Math.round(median(runs.map((r) => r.firstMs)) * 10) / 10,
      requests: median(runs.map((r) => r.requests)),
      // How many of the runs loaded undici (every one over http, none over TLS: scripts/bench/tls.mjs).
      undiciRuns: runs.filter((r) => r.undici).length,
    });
    // Round robin: the baseline's and every bundle's first run, then every second run, and so
    // on. A slow minute of the machine (another process, DynamoDB Local's collector) then lands
    // on one run of many functions, which their medians drop, instead of on every run of a few
    // functions in a row (seen: ten neighbours at 1.5-1.6x the baseline's requireMs in one run,
    // 1.1-1.2x in the next).
    const targets = [
      { outfile: baseline.outfile, exportName: 'handler', events: Array.from({ length: opts.initRuns }, () => apiEvent('GET /baseline')) },
      ...[...built.values()].filter((b) => !initOnly || initOnly.includes(b.name)).map((b) => ({ b, outfile: b.outfile, exportName: b.exportName, events: initEvents.get(b.name) ?? Array.from({ length: opts.initRuns }, () => apiEvent(b.route, {})) })),
    ];
    const runs = targets.map(() => []);
    const settled = { writes: 0, recent: 0, likers: 0, unfollowed: 0 };
    // Each round in an order of its own (scripts/bench/order.mjs), the baseline's place included.
    result.initOrder = { shuffled: opts.initSeed !== 0, seed: opts.initSeed };
    const orders = roundOrders(targets.length, opts.initRuns, opts.initSeed);
    for (let r = 0; r < opts.initRuns; r++) {
      for (const i of orders[r]) {
        const t = targets[i];
        const event = t.events[r];
        if (!event) continue;
        runs[i].push(coldStart(t.outfile, t.exportName, event));
        // A cold request that wrote: the stream's reactions before the next one (scripts/bench/settle.mjs).
        if (t.b && event.requestContext.http.method !== 'GET') {
          const moved = await settleAfterWrite(event, ds, lib);
          settled.writes++;
          for (const k of ['recent', 'likers', 'unfollowed']) settled[k] += moved[k];
        }
      }
    }
    result.coldWritesSettled = settled;
    say(`cold starts: ${settled.writes} writing requests settled (${settled.recent} users' recent ids and ${settled.likers} recent likers items moved; the unfollow job run for ${settled.unfollowed} ended follows of the users they named)`);
    result.baseline = { bytes: baseline.bytes, ...summarize(runs[0]), parts: baseline.parts };
    // The baseline's warm median, measured in process as the endpoint rows are: its cold-start
    // overhead is its first cold answer minus this (scripts/bench/overhead.mjs).
    const baselineHandler = require(baseline.outfile).handler;
    result.baseline.warmP50Ms = await warmMedian(baselineHandler, () => apiEvent('GET /baseline'), { warmup: opts.warmup, iterations: opts.iterations });
    targets.slice(1).forEach(({ b }, i) => {
      const all = runs[i + 1];
      // The status the cold request got: a cold start is only comparable when it did the real
      // work. The first run's status is the scenario's; a run answered otherwise found its
      // target taken away by another function's cold request of an earlier round (a deleted
      // post, user or session: 1 or 2 of 15 runs of 14 functions in the runs of 2026-11-27,
      // with either order), did less work, and is left out of the medians, named in the log and
      // in the JSON (`statuses`, `offStatusRuns`).
      const own = all.filter((r) => r.status === all[0]?.status);
      result.bundles[b.name] = { bytes: b.bytes, ...summarize(own), route: b.route, status: all[0]?.status, parts: b.parts };
      if (own.length < all.length) {
        Object.assign(result.bundles[b.name], { statuses: all.map((r) => r.status), offStatusRuns: all.length - own.length });
        say(`cold starts: ${b.name} answered ${all.map((r) => r.status).join(', ')}: ${all.length - own.length} run(s) left out of its medians`);
      }
    });
  };

  for (const scaleName of opts.scales) {
    const scale = SCALES[scaleName];
    if (!scale) throw new Error(`unknown scale ${scaleName} (known: ${Object.keys(SCALES).join(', ')})`);
    // One table name for every scale (the bundles read it at load), on a fresh DynamoDB Local each.
    await freshTable();
    const ds = buildDataset(scale);
    say(`loading ${scale.name}: ${scale.users} users, ${ds.posts.length} posts`);
    const load = await loadDataset(ds, lib, { endpoint: dynamo.endpoint, table: TABLE, concurrency: 16 });
    say(`loaded ${load.items} items in ${(load.ms / 1000).toFixed(1)} s`);
    const put = (item) => sessions.send(new PutCommand({ TableName: TABLE, Item: item }));
    let twoFactorHash;
    const ctx = scenarioContext(ds, {
      signToken: lib.signToken, runTag, startSession, keys: lib.keys, newId: lib.newId, put,
      totp: (secret) => lib.codeAt(secret, lib.stepAt(Date.now())),
      // What the cold-start requests noted so far name: the late scenarios' cold requests take
      // nothing of it (scenarios.mjs inUse).
      referenced: () => {
        const n = [...initEvents.values()].reduce((sum, events) => sum + events.length, 0);
        if (n !== named.n) named = { n, set: new Set([...initEvents.values()].flat().flatMap(namedIn)) };
        return named.set;
      },
      // A new user (no edges, no content) suspended as a moderator's resolution suspends
      // (lib/account/suspend.ts): the unsuspend scenario's target.
      suspendFresh: async () => {
        const id = lib.newId();
        const user = lib.newUserItem(id, { name: 'Suspended Bench', username: `sb_${id.toLowerCase()}`, email: `${id.toLowerCase()}@bench.test`, passwordHash: 'unused' }, new Date().toISOString());
        await put(user);
        await lib.suspendAccount(user, ds.users[0].id, { traceId: `bench-suspend-${id}`, scenarioId: 'bench', stepId: 'suspend', simTimestamp: Date.now() }, {});
        return id;
      },
      // A new account (no edges, no content, its address not verified) with a password and a
      // session: the target of a scenario that ends every session of its account (a reset) or
      // needs an address still to verify. Reset on the data set's users, it ended the loader's
      // sessions the later scenarios sign their tokens on (answered 401).
      freshAccount: async () => {
        const id = lib.newId();
        twoFactorHash ??= await lib.hashPassword(PASSWORD);
        const email = `${id.toLowerCase()}@bench.test`;
        const user = lib.newUserItem(id, { name: 'Fresh Bench', username: `fb_${id.toLowerCase()}`, email, passwordHash: twoFactorHash }, new Date().toISOString());
        await Promise.all([
          put(user),
          put(lib.claimItem(lib.keys.username(user.username), id, twoFactorHash)),
          put(lib.claimItem(lib.keys.email(email), id, twoFactorHash)),
        ]);
        const session = await startSession(id);
        return { id, username: user.username, email, token: session.token };
      },
      // A new user with a session and two-factor sign-in pending (a secret set up) or on (with
      // recovery codes): the targets of the two-factor scenarios, which change their login.
      // `challenge`: also a login's challenge, as a right password answers it.
      twoFactorFresh: async (state, { challenge = false } = {}) => {
        const id = lib.newId();
        twoFactorHash ??= await lib.hashPassword(PASSWORD);
        const on = state === 'on';
        const user = { ...lib.newUserItem(id, { name: 'Two Factor Bench', username: `tf_${id.toLowerCase()}`, email: `${id.toLowerCase()}@bench.test`, passwordHash: twoFactorHash }, new Date().toISOString()), ...(on ? { twoFactorEnabled: true } : {}) };
        const secret = lib.newSecret();
        const recoveryCodes = lib.newRecoveryCodes();
        await Promise.all([
          put(user),
          put(lib.claimItem(lib.keys.username(user.username), id, twoFactorHash)),
          put({ ...lib.keys.twoFactor(id), type: 'TWO_FACTOR', userId: id, ...(on ? { secret, lastStep: 0, recovery: new Set(recoveryCodes.map((c) => lib.recoveryHash(id, c))) } : { pendingSecret: secret }) }),
        ]);
        const session = await startSession(id);
        const issued = challenge ? await lib.issueChallenge(user, { trace: { traceId: `bench-2fa-${id}`, scenarioId: 'bench', stepId: 'challenge', simTimestamp: Date.now() }, payload: {} }) : undefined;
        return { id, username: user.username, token: session.token, secret, recoveryCodes, challenge: issued?.challenge };
      },
      openReports: async () => {
        const res = await sessions.send(new QueryCommand({
          TableName: TABLE, IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :q', ExpressionAttributeValues: { ':q': lib.keys.reportQueue('open') }, Limit: 100,
        }));
        return (res.Items ?? []).map((r) => r.id);
      },
    });
    const entry = { name: scale.name, users: scale.users, posts: ds.posts.length, items: load.items, loadMs: load.ms, endpoints: {} };

    // Cold-start events of a function: the requests of calls after its measured ones.
    const noteColdEvents = async (fn, scenario, key) => {
      if (initEvents.has(fn.name)) return;
      // A scenario whose fresh targets ran out gives its cold starts an empty request.
      const events = [];
      try {
        for (let r = 0; r < opts.initRuns; r++) events.push(apiEvent(fn.route, await scenario.request(ctx, opts.warmup + opts.iterations + 1 + r)));
        initEvents.set(fn.name, events);
      } catch (err) {
        say(`${scale.name} ${key}: no cold-start requests (${err.message})`);
      }
    };
    let coldPending = opts.init && result.scales.length === 0;
    // The cold requests list users as a stage whose stream keeps up would (scripts/bench/settle.mjs).
    const coldStarts = async () => {
      const moved = await settleRecentIds(ds, lib);
      say(`${scale.name}: recent ids brought up to date for ${moved} of ${ds.N} users (the stream's reaction, before the cold starts)`);
      result.recentIdsSettled = { users: ds.N, moved };
      const likersMoved = await settleRecentLikers(ds, lib);
      say(`${scale.name}: recent likers brought up to date for ${likersMoved} of ${ds.posts.length} posts and ${ds.comments.length} comments`);
      result.recentLikersSettled = { posts: ds.posts.length, comments: ds.comments.length, moved: likersMoved };
      const unfollowed = await settleFeeds(ds, lib);
      say(`${scale.name}: home feeds rid of the authors of ${unfollowed} follows the scenarios ended (the stream's unfollow job)`);
      result.feedsSettled = { unfollowed };
      await measureColdStarts(ds);
    };
    for (const s of selected) {
      const key = scenarioKey(s);
      const fn = byRoute.get(routeShape(s.route));
      if (!fn) {
        entry.endpoints[key] = { status: 'missing' };
        continue;
      }
      const scenario = withFunctionParams(s, fn);
      // Cold starts against the first data set, before its late scenarios (a password change
      // ends sessions, deletions take posts, comments and users away): every cold request
      // still finds the data it names. The late functions' own cold requests are made first.
      if (s.late && coldPending) {
        coldPending = false;
        for (const l of selected.filter((x) => x.late)) {
          const lf = byRoute.get(routeShape(l.route));
          if (lf) await noteColdEvents(lf, withFunctionParams(l, lf), scenarioKey(l));
        }
        await coldStarts();
      }
      try {
        entry.endpoints[key] = await runScenario({
          scenario, handler: fn.handler, routeKey: fn.route, ctx, warmup: Math.min(opts.warmup, s.warmup ?? opts.warmup), iterations: opts.iterations, rawClient: raw,
        });
      } catch (err) {
        entry.endpoints[key] = { status: 'error', message: err.message };
      }
      const e = entry.endpoints[key];
      say(`${scale.name} ${key}: ${e.status === 'ok' ? `p50 ${e.p50Ms} ms, ${e.dbCalls} requests, ${e.dbRoundTrips} trips` : `${e.status} ${e.message ?? ''}`}`);
      // Cold-start events for this function, on this (the first) data set.
      if (coldPending && e.status === 'ok') await noteColdEvents(fn, scenario, key);
    }
    if (coldPending) await coldStarts();
    result.scales.push(entry);
  }

  if (opts.hot) {
    // On the last scale's table, still loaded: 500 new users and one new post among its data.
    if (!result.scales.length) await ensureTable(dynamo.endpoint, TABLE);
    say(`hot post: 500 users like one post, 50 at a time`);
    result.hotPost = await benchHotPost({ endpoint: dynamo.endpoint, table: TABLE, lib, handler: byRoute.get(routeShape('POST /posts/like/{post_id}')).handler, say });
    say(`hot tag: 500 authors post to one tag, 50 at a time; a tag page of 10 posts and of 2,000`);
    result.hotTag = await benchHotTag({ endpoint: dynamo.endpoint, table: TABLE, lib, handler: byRoute.get(routeShape('POST /posts/create')).handler, say });
    result.tagPage = await benchTagPage({ endpoint: dynamo.endpoint, table: TABLE, lib, handler: byRoute.get(routeShape('GET /tags/{tag}/posts')).handler, say });
  }
  if (opts.feed) {
    // Its own data on an empty table; the stream consumer's bundle as deployment builds it.
    await freshTable();
    const consumer = await bundle(root, 'functions/events/stream.ts', join(work, 'functions', 'streamConsumer.js'));
    const handlers = {
      feed: byRoute.get(routeShape('GET /posts/feed')).handler,
      create: byRoute.get(routeShape('POST /posts/create')).handler,
      consumer: require(consumer.outfile).handler,
    };
    say('home feed: page cost by following count, fan-out, create to visible');
    result.feed = await benchFeed({ root, endpoint: dynamo.endpoint, table: TABLE, lib, handlers, warmup: 20, iterations: opts.iterations, say });
    say('notifications: a page at 10 and at 100,000 stored');
    result.notifications = await benchNotifications({
      endpoint: dynamo.endpoint, table: TABLE, lib, handler: byRoute.get(routeShape('GET /notifications')).handler, warmup: 20, iterations: opts.iterations, say,
    });
    say('live updates: a notification to a user with nothing live, and to one with 5 connections');
    result.live = await benchLive({ endpoint: dynamo.endpoint, table: TABLE, lib, consumer: handlers.consumer, warmup: 20, iterations: opts.iterations, say });
  }
  if (!opts.init) {
    result.baseline = { bytes: baseline.bytes, parts: baseline.parts };
    for (const b of built.values()) result.bundles[b.name] = { bytes: b.bytes, route: b.route, parts: b.parts };
  }

  // Each function's cold-start overhead against its warm row of this run (issue 47).
  Object.assign(result, withOverheads(result));
  // The monthly bill of the usage mix at this run's measured rows (scripts/bench/cost.mjs).
  if (result.scales.length) result.cost = billOf(result);
  process.stdout.write(`${endpointTable(result, selected)}\n`);
  // No cold starts without a scale (--scales none): no bundle table.
  if (result.baseline) process.stdout.write(`${bundleTable(result)}\n`);
  if (result.baseline?.overheadMs !== undefined) process.stdout.write(`\n${overheadTable(result)}\n`);
  if (result.cost) process.stdout.write(`\nWhat it costs a month (scripts/bench/usage-mix.mjs, scripts/bench/prices.mjs):\n\n${costTable(result.cost)}\n`);
  if (result.feed) process.stdout.write(`\n${feedTable(result.feed)}\n\n${notificationsTable(result.notifications)}\n`);
  if (result.live) process.stdout.write(`\n${liveTable(result.live)}\n`);
  if (result.hotPost) process.stdout.write(`\n${hotPostTable(result.hotPost)}\n`);
  if (result.hotTag) process.stdout.write(`\n${hotTagTable(result.hotTag, result.tagPage)}\n`);
  process.stdout.write(`\n${checks(result, selected)}\n`);
  result.meta = {
    date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, loadavg: os.loadavg().map((n) => Math.round(n * 10) / 10),
    iterations: opts.iterations, warmup: opts.warmup, initRuns: opts.initRuns, seconds: Math.round((performance.now() - started) / 1000),
  };
  if (opts.out) {
    const out = resolve(process.cwd(), opts.out);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
    say(`wrote ${out}`);
  }
  if (opts.markdown) {
    const md = resolve(process.cwd(), opts.markdown);
    mkdirSync(dirname(md), { recursive: true });
    writeFileSync(md, `${markdownTables(result)}${result.cost ? `\n${costTable(result.cost)}\n` : ''}${result.feed ? `\n${feedTable(result.feed)}\n\n${notificationsTable(result.notifications)}\n` : ''}${result.live ? `\n${liveTable(result.live)}\n` : ''}${result.hotPost ? `\n${hotPostTable(result.hotPost)}\n` : ''}`);
    say(`wrote ${md}`);
  }
  say(`done in ${result.meta.seconds} s`);
} finally {
  raw.destroy();
  sessions.destroy();
  await dynamo.stop();
}
process.exit(0);
