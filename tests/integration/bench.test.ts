// Keeps the benchmark harness (scripts/bench.mjs) from rotting: the loader writes a tiny
// data set whose counters match its edges, and one scenario runs through a real handler
// with the DB metrics on. The benchmark itself is `npm run bench`, never part of the tests.
import { stop as esbuildStop } from 'esbuild';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync, spawn } from 'node:child_process';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';

const TABLE = 'aperture-bench-harness';
const root = resolve(__dirname, '../..');

// The bench modules and lib are required after the environment names the harness table
// and the metrics are installed: lib/db/client.ts reads both when it loads.
process.env.TABLE_NAME = TABLE;
const { apiEvent, runScenario, depths, installDbMetrics } = require('../../scripts/bench/measure.mjs');
installDbMetrics();
const { SCALES, buildDataset } = require('../../scripts/bench/dataset.mjs');
const { loadDataset, loaderClient } = require('../../scripts/bench/loader.mjs');
const { markdownTables } = require('../../scripts/bench/report.mjs');
const { settleAfterWrite, settleFeeds, settleRecentIds } = require('../../scripts/bench/settle.mjs');
const { scenarioContext, scenarios } = require('../../scripts/bench/scenarios.mjs');
const { bundle, checkEsbuildSettings, discoverFunctions } = require('../../scripts/bench/build.mjs');
const lib = require('../../scripts/bench/lib-entry');

const endpoint = process.env.DYNAMODB_ENDPOINT!;
const ds = buildDataset(SCALES.tiny, `h${Date.now().toString(36).slice(-4)}_`);
const docs = loaderClient(endpoint);
const localClient = () => new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });

// The table of resources/table.json (scripts/lib/local-dynamodb.mjs is ESM-only: import.meta).
async function createTable(): Promise<void> {
  const def = JSON.parse(readFileSync(resolve(root, 'resources/table.json'), 'utf8'));
  const client = localClient();
  await client.send(new CreateTableCommand({
    TableName: TABLE, BillingMode: 'PAY_PER_REQUEST', KeySchema: def.KeySchema,
    AttributeDefinitions: def.AttributeDefinitions, GlobalSecondaryIndexes: def.GlobalSecondaryIndexes,
  }));
  client.destroy();
}

beforeAll(async () => {
  await createTable();
  await loadDataset(ds, lib, { endpoint, table: TABLE, concurrency: 4 });
});
// esbuild's service process (the bench's bundles) is stopped too: a pending build keeps it, and
// the jest worker with it (tests/deploy/bundle-size.test.ts).
afterAll(() => { docs.destroy(); esbuildStop(); });

const count = async (input: Record<string, unknown>) => {
  const res = await docs.send(new QueryCommand({ TableName: TABLE, Select: 'COUNT', ...input }));
  return res.Count;
};

describe('benchmark loader', () => {
  it('writes users whose counters match their edge items, posts whose counters match their likes and comments', async () => {
    const u = ds.users[3];
    const user = (await docs.send(new GetCommand({ TableName: TABLE, Key: lib.keys.user(u.id) }))).Item!;
    expect(user.username).toBe(u.username);
    expect(user.followersCount).toBe(await count({ IndexName: 'GSI2', KeyConditionExpression: 'GSI2PK = :p', ExpressionAttributeValues: { ':p': lib.keys.followersOf(u.id) } }));
    expect(user.followingCount).toBe(await count({ IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :p', ExpressionAttributeValues: { ':p': lib.keys.followingOf(u.id) } }));
    expect(user.followersCount).toBe(SCALES.tiny.follows);
    expect(user.postsCount).toBe(await count({ IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :p', ExpressionAttributeValues: { ':p': lib.keys.postsOf(u.id) } }));

    const p = ds.posts[5];
    const post = (await docs.send(new GetCommand({ TableName: TABLE, Key: lib.keys.post(p.id) }))).Item!;
    expect(post.likesCount).toBe(await count({ KeyConditionExpression: 'PK = :p AND begins_with(SK, :l)', ExpressionAttributeValues: { ':p': `POST#${p.id}`, ':l': 'LIKE#' } }));
    const top = await count({ IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :p', ExpressionAttributeValues: { ':p': lib.keys.commentsOf(p.id) } });
    let replies = 0;
    for (const c of p.comments) {
      replies += (await count({ IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :p', ExpressionAttributeValues: { ':p': lib.keys.repliesOf(c.id) } }))!;
    }
    expect(post.commentsCount).toBe(top! + replies);
    expect(top).toBe(SCALES.tiny.commentsPerPost);
  });
});

describe('benchmark scenario', () => {
  /** One route's scenario through its function's handler (found by the bench's own discovery), 1 warm-up call and 3 measured. */
  async function measure(route: string, file: string) {
    const fn = discoverFunctions(root).find((f: { route: string }) => f.route === route);
    expect(fn.file).toBe(file);
    const { handler } = require(join(root, file));
    const scenario = scenarios.find((s: { route: string }) => s.route === route);
    const ctx = scenarioContext(ds, { signToken: lib.signToken, runTag: 't' });
    const raw = localClient();
    try {
      const result = await runScenario({ scenario, handler, routeKey: fn.route, ctx, warmup: 1, iterations: 3, rawClient: raw });
      expect(result.message).toBeUndefined();
      return result;
    } finally {
      raw.destroy();
    }
  }

  it('measures GET /users/{identifier} through the real handler: requests, round trips, capacity, bare time', async () => {
    const result = await measure('GET /users/{identifier}', 'functions/users/profile.ts');
    // 8: the caller's user and session items (they say whether the session is live), claim, one
    // BatchGet of the target user and the relation, 2 edge Queries, and the caller's block lists
    // (one Query of its own partition) and the GONE partition (hidden ids).
    expect(result).toMatchObject({ status: 'ok', dbCalls: 8, dbRoundTrips: 2 });
    expect(result.rcu).toBeGreaterThan(0);
    expect(result.wcu).toBe(0);
    expect(result.bareP50Ms).toBeGreaterThan(0);
  });

  it('measures POST /posts/like/{post_id} in one round trip after the caller\'s read: the count comes from the write', async () => {
    const result = await measure('POST /posts/like/{post_id}', 'functions/posts/like.ts');
    // 4: the caller's user and session items and the post (3 GetItems at once), then one
    // TransactWriteItems conditioned on the count read with the post: no read after the write.
    expect(result).toMatchObject({ status: 'ok', dbCalls: 4, dbRoundTrips: 2 });
  });

  it('measures POST /comments/like/{comment_id} in two round trips after the caller\'s read: one BatchGet for the thread, the count from the write', async () => {
    const result = await measure('POST /comments/like/{comment_id}', 'functions/comments/like.ts');
    // 5: the caller's user and session items and the comment (3 GetItems at once); one BatchGet of
    // the post's (and parent's) key with the relation keys of the thread's authors; one
    // TransactWriteItems conditioned on the count read with the comment: no read after the write.
    expect(result).toMatchObject({ status: 'ok', dbCalls: 5, dbRoundTrips: 3 });
  });

  it('prices a read\'s floor from its own answer', () => {
    const feed = scenarios.find((s: { route: string }) => s.route === 'GET /posts/feed');
    // The caller's user and session items (2), the page of entries (a Query of the table itself,
    // strongly consistent: 1), 3 posts and their 2 authors (items of the table, strongly consistent: 1 each).
    expect(feed.floorRcu({ posts: [{ author: { _id: 'a' } }, { author: { _id: 'a' } }, { author: { _id: 'b' } }] })).toBe(8);
    // A list read from an index: its page at the index's price (eventually consistent: 0.5).
    const followers = scenarios.find((s: { route: string; variant?: string }) => s.route === 'GET /users/{identifier}/followers' && !s.variant);
    expect(followers.floorRcu({ followers: [{}, {}] })).toBe(4.5);
  });

  it('counts requests sent together as one round trip', () => {
    const a = { start: 0, end: 5 };
    const b = { start: 1, end: 4 };
    const c = { start: 6, end: 9 };
    const d = depths([a, b, c]);
    expect([d.get(a), d.get(b), d.get(c)]).toEqual([1, 1, 2]);
  });
});

describe('benchmark scenarios over many calls', () => {
  it('never sends a later scenario across a block the block scenario made', async () => {
    const ctx = scenarioContext(ds, { signToken: async ({ userId }: { userId: string }) => `token-of:${userId}`, runTag: 't' });
    const blockScenario = scenarios.find((s: { route: string }) => s.route === 'POST /users/block/{identifier}');
    const req = await blockScenario.request(ctx, 0);
    const index = (pred: (u: { id: string; username: string }) => boolean) => ds.users.findIndex(pred);
    const blocker = index((u) => req.token === `token-of:${u.id}`);
    const blocked = index((u) => u.username === req.params.identifier);
    expect(Math.min(blocker, blocked)).toBeGreaterThanOrEqual(0);
    // A pair the data set does not block: only the scenario context knows about it.
    expect(ds.blockedEitherWay(blocker, blocked)).toBe(false);
    expect(ctx.blockedEitherWay(blocked, blocker)).toBe(true);
    for (let k = 0; k < 3 * ds.N; k++) expect(ctx.viewer(k, 0, blocked)).not.toBe(blocker);
  });

  it('unblocks the data set\'s blocks, then those the run made, each pair once', async () => {
    const ctx = scenarioContext(ds, { signToken: async ({ userId }: { userId: string }) => `token-of:${userId}`, runTag: 't' });
    const find = (route: string) => scenarios.find((s: { route: string }) => s.route === route);
    const index = (pred: (u: { id: string; username: string }) => boolean) => ds.users.findIndex(pred);
    const made = 5;
    for (let k = 0; k < made; k++) await find('POST /users/block/{identifier}').request(ctx, k);
    const pairs = new Set<string>();
    for (let k = 0; k < ds.N + made; k++) {
      const req = await find('POST /users/unblock/{identifier}').request(ctx, k);
      const [a, b] = [index((u) => req.token === `token-of:${u.id}`), index((u) => u.username === req.params.identifier)];
      expect(ds.blocks(a, b) || ctx.madeBlocks.some(([x, y]: number[]) => x === a && y === b)).toBe(true);
      pairs.add(`${a}:${b}`);
    }
    expect(pairs.size).toBe(ds.N + made);
    await expect(find('POST /users/unblock/{identifier}').request(ctx, 0)).rejects.toThrow('no fresh target left');
  });
});

describe('benchmark bundles', () => {
  it('--init-tls: a cold start reaches DynamoDB Local over TLS through the proxy, and loads no undici, which over http it does', async () => {
    const { makeCertificate, startTlsProxy } = require('../../scripts/bench/tls.mjs');
    const out = mkdtempSync(join(tmpdir(), 'aperture-tls-'));
    const base = await bundle(root, 'scripts/bench/baseline.ts', resolve(out, 'baseline.js'));
    const cert = makeCertificate(join(out, 'tls'));
    const endpoint = process.env.DYNAMODB_ENDPOINT!;
    const proxy = await startTlsProxy(cert, Number(new URL(endpoint).port));
    try {
      expect(proxy.endpoint).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const event = join(out, 'event.json');
      writeFileSync(event, JSON.stringify(apiEvent('GET /baseline')));
      // As scripts/bench.mjs starts it: with the deployed runtime's flags (resources/node-flags/node-flags).
      const { coldStartNodeArgs, deployedNodeFlags } = require('../../scripts/bench/node-flags.mjs');
      const coldStart = (env: Record<string, string>) => JSON.parse(execFileSync(join(root, 'node_modules/node/bin/node'),
        [...coldStartNodeArgs(''), join(root, 'scripts/bench/init-child.mjs'), base.outfile, 'handler', event],
        { env: { ...process.env, TABLE_NAME: TABLE, ...env }, encoding: 'utf8' }).trim().split('\n').pop()!);
      const overHttp = coldStart({ DYNAMODB_ENDPOINT: endpoint });
      const overTls = coldStart({ DYNAMODB_ENDPOINT: proxy.endpoint, NODE_EXTRA_CA_CERTS: cert.cert });
      expect(overHttp).toMatchObject({ status: 200, requests: 1, undici: true });
      expect(overTls).toMatchObject({ status: 200, requests: 1, undici: false });
      expect(overTls.execArgv).toEqual(deployedNodeFlags());
      expect(overTls.execArgv).toContain('--no-lazy-feedback-allocation');
    } finally {
      proxy.stop();
    }
  });

  it('--init-tls: the proxy ends with the benchmark, even one killed outright', async () => {
    const tls = join(root, 'scripts/bench/tls.mjs');
    const script = `import { makeCertificate, startTlsProxy } from ${JSON.stringify(tls)};
      const p = await startTlsProxy(makeCertificate(${JSON.stringify(join(mkdtempSync(join(tmpdir(), 'aperture-tls-')), 'tls'))}), 1);
      console.log(p.pid); process.kill(process.pid, 'SIGKILL');`;
    const out = await new Promise<string>((done) => {
      const child = spawn(join(root, 'node_modules/node/bin/node'), ['--input-type=module', '-e', script]);
      let text = '';
      child.stdout.on('data', (c: Buffer) => { text += c; });
      child.on('exit', () => done(text));
    });
    const pid = Number(out.trim());
    expect(pid).toBeGreaterThan(0);
    const alive = () => { try { process.kill(pid, 0); return true; } catch { return false; } };
    for (let i = 0; i < 100 && alive(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(alive()).toBe(false);
  });

  it('tells the design card libraries and our code apart in what a bundle weighs', async () => {
    const out = mkdtempSync(join(tmpdir(), 'aperture-bundle-'));
    const base = await bundle(root, 'scripts/bench/baseline.ts', resolve(out, 'baseline.js'));
    const fn = await bundle(root, 'functions/logs/trace.ts', resolve(out, 'trace.js'));
    expect(base.parts).toEqual({ 'aws-sdk and the rest': expect.any(Number), app: expect.any(Number) });
    for (const part of ['zod', 'jose', 'middy', 'app']) expect(fn.parts[part]).toBeGreaterThan(1000);
    const sum = (parts: Record<string, number>) => Object.values(parts).reduce((a, b) => a + b, 0);
    // What esbuild attributes to inputs is nearly the whole file (the rest is its own glue).
    expect(sum(fn.parts)).toBeLessThanOrEqual(fn.bytes);
    expect(sum(fn.parts)).toBeGreaterThan(0.95 * fn.bytes);
  });

  it('builds with the esbuild plugins of serverless.yml, as deployment does (the OpenAPI document gzipped)', async () => {
    const out = mkdtempSync(join(tmpdir(), 'aperture-bundle-'));
    const docs = await bundle(root, 'functions/docs/openapi.ts', resolve(out, 'openapi.js'));
    const raw = readFileSync(resolve(root, 'docs/openapi.json'), 'utf8');
    // Embedded as is, the document alone would be larger than all our code with it gzipped.
    expect(docs.parts.app).toBeLessThan(JSON.stringify(JSON.parse(raw)).length);
    expect(checkEsbuildSettings(root)).toEqual([]);
  });
});

describe('benchmark report', () => {
  it('writes the Markdown tables of docs/PERFORMANCE.md from a result', () => {
    const e = { status: 'ok', p50Ms: 5.25, p95Ms: 9, bareP50Ms: 4.5, dbCalls: 7, dbRoundTrips: 2, rcu: 7.5, floorRcu: 3.5, wcu: 0 };
    const md = markdownTables({
      scales: [{ name: '1x', endpoints: { 'GET /posts/{post_id}': e } }, { name: '10x', endpoints: { 'GET /posts/{post_id}': { status: 'error' } } }],
      baseline: { bytes: 1000, initMs: 50, requireMs: 30, firstMs: 20, requests: 1, parts: { app: 512 } },
      bundles: { postsGet: { bytes: 1200, initMs: 60, requireMs: 33, firstMs: 27, requests: 7, parts: { zod: 2048, jose: 1024, middy: 512, app: 1536 } } },
    });
    expect(md).toContain('| `GET /posts/{post_id}` | 1x | 5.3 | 9 | 4.5 | 7 | 2 | 7.5 | 3.5 | 0 |');
    expect(md).toContain('|  | 10x | error |');
    expect(md).toContain('| baseline (one GetItem) | 1,000 | 1.00 | 50 | 1.00 | 30 | 20 | 1.00 | 1 | 0.0 | 0.0 | 0.0 | 0.5 |');
    expect(md).toContain('| `postsGet` | 1,200 | 1.20 | 60 | 1.20 | 33 | 27 | 1.35 | 7 | 2.0 | 1.0 | 0.5 | 1.5 |');
    expect(md).not.toContain('over TLS');
  });

  it('says when the cold starts ran over TLS, in the tables and the check', () => {
    const { bundleTable, checks } = require('../../scripts/bench/report.mjs');
    const result = {
      initMode: 'tls',
      scales: [],
      baseline: { bytes: 1000, initMs: 50, requireMs: 30, firstMs: 20, requests: 1, parts: {}, overheadMs: 16 },
      bundles: { postsGet: { bytes: 1200, initMs: 60, requireMs: 33, firstMs: 27, requests: 7, parts: {}, overheadMs: 20 } },
    };
    expect(markdownTables(result)).toContain('Cold starts over TLS (`--init-tls`), as functions reach DynamoDB in AWS.');
    expect(bundleTable(result)).toContain('Cold starts over TLS');
    expect(checks(result, [])).toContain('PASS (d) cold-start overhead (first cold answer - warm p50) <= 1.5x baseline (16 ms, over TLS) on 1 functions');
  });
});

describe('benchmark settle before the cold starts', () => {
  it('brings a user whose follow edges moved without the stream up to date with the stream\'s own reaction, and no other', async () => {
    await settleRecentIds(ds, lib);
    const u = ds.users[5];
    // A follow change as the follow transaction records it (edgesV moves), with no stream to follow it.
    await docs.send(new UpdateCommand({ TableName: TABLE, Key: lib.keys.user(u.id), UpdateExpression: 'ADD edgesV :one', ExpressionAttributeValues: { ':one': 1 } }));
    const before = (await docs.send(new GetCommand({ TableName: TABLE, Key: lib.keys.user(u.id), ConsistentRead: true }))).Item!;
    expect(before.recentV).toBeLessThan(before.edgesV);

    expect(await settleRecentIds(ds, lib)).toBe(1);
    const after = (await docs.send(new GetCommand({ TableName: TABLE, Key: lib.keys.user(u.id), ConsistentRead: true }))).Item!;
    expect(after.recentV).toBe(after.edgesV);
    expect(after.recentFollowers).toHaveLength(SCALES.tiny.follows);
    // A replay changes nothing.
    expect(await settleRecentIds(ds, lib)).toBe(0);
  });

  it('rids a home feed of an author whose follow the scenarios ended, with the stream\'s own unfollow job, and no other feed', async () => {
    const reader = ds.users[2];
    const [gone, kept] = ds.followingOf(reader.i).map((a: number) => ds.users[a]);
    const authorsIn = async (userId: string): Promise<string[]> => {
      const res = await docs.send(new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': lib.keys.homeFeed(userId) }, ConsistentRead: true }));
      return ((res.Items ?? []) as Record<string, unknown>[]).map((i) => String(i.authorId));
    };
    expect(await settleFeeds(ds, lib)).toBe(0);
    const before = await authorsIn(reader.id);
    expect(before).toContain(gone.id);
    expect(before).toContain(kept.id);
    const other = ds.users[ds.followersOf(gone.i).find((f: number) => f !== reader.i)];
    const otherBefore = await authorsIn(other.id);
    expect(otherBefore).toContain(gone.id);
    // An unfollow as the transaction leaves it, with no stream to follow it.
    await docs.send(new DeleteCommand({ TableName: TABLE, Key: lib.keys.follow(reader.id, gone.id) }));

    expect(await settleFeeds(ds, lib)).toBe(1);
    const after = await authorsIn(reader.id);
    expect(after).not.toContain(gone.id);
    expect(after.filter((a) => a === kept.id)).toHaveLength(before.filter((a) => a === kept.id).length);
    expect(after).toHaveLength(before.length - before.filter((a) => a === gone.id).length);
    expect(await authorsIn(other.id)).toEqual(otherBefore);
    // A replay removes nothing more.
    expect(await settleFeeds(ds, lib)).toBe(1);
    expect(await authorsIn(reader.id)).toEqual(after);
  });

  it('settles after a cold request that wrote: its caller and the user it names, their ended follows, the post it names', async () => {
    const reader = ds.users[4];
    const author = ds.users[ds.followingOf(reader.i)[1]];
    const user = async (id: string) => (await docs.send(new GetCommand({ TableName: TABLE, Key: lib.keys.user(id), ConsistentRead: true }))).Item!;
    // An unfollow as its transaction leaves it (the edge gone, both users' counts and edgesV moved), with no stream.
    await docs.send(new DeleteCommand({ TableName: TABLE, Key: lib.keys.follow(reader.id, author.id) }));
    for (const [u, count] of [[reader, 'followingCount'], [author, 'followersCount']] as const) {
      await docs.send(new UpdateCommand({ TableName: TABLE, Key: lib.keys.user(u.id), UpdateExpression: `ADD edgesV :one, ${count} :less`, ExpressionAttributeValues: { ':one': 1, ':less': -1 } }));
    }
    // The caller's token is read for its subject only.
    const token = `x.${Buffer.from(JSON.stringify({ sub: reader.id })).toString('base64url')}.y`;

    const unfollow = apiEvent('POST /users/unfollow/{identifier}', { params: { identifier: author.username }, token });
    expect(await settleAfterWrite(unfollow, ds, lib)).toEqual({ recent: 2, likers: 0, unfollowed: 1 });
    for (const u of [reader, author]) expect((await user(u.id)).recentV).toBe((await user(u.id)).edgesV);
    const feed = await docs.send(new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': lib.keys.homeFeed(reader.id) }, ConsistentRead: true }));
    expect(((feed.Items ?? []) as Record<string, unknown>[]).map((i) => i.authorId)).not.toContain(author.id);

    // A like as its transaction leaves the post (likesV moved): the post the request names.
    const post = ds.posts[7];
    await docs.send(new UpdateCommand({ TableName: TABLE, Key: lib.keys.post(post.id), UpdateExpression: 'ADD likesV :one', ExpressionAttributeValues: { ':one': 1 } }));
    const like = apiEvent('POST /posts/like/{post_id}', { params: { post_id: post.id }, token });
    expect(await settleAfterWrite(like, ds, lib)).toEqual({ recent: 0, likers: 1, unfollowed: 1 });
    const item = (await docs.send(new GetCommand({ TableName: TABLE, Key: lib.keys.postLikers(post.id), ConsistentRead: true }))).Item!;
    expect(item.v).toBe((await docs.send(new GetCommand({ TableName: TABLE, Key: lib.keys.post(post.id), ConsistentRead: true }))).Item!.likesV);
    // Settled: the same request again moves nothing but re-checks the ended follow.
    expect(await settleAfterWrite(like, ds, lib)).toEqual({ recent: 0, likers: 0, unfollowed: 1 });
  });
});
