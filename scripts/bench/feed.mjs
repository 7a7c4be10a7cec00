// The home feed's own figures (docs/PERFORMANCE.md, "Home feed"): what a page costs as the
// caller follows 1 to 7,500 accounts and with read-time authors among them, what a post's
// fan-out writes for authors of 10 to 10,000 followers, and how long a new post takes to
// reach a follower's feed through the real local pipeline (DynamoDB Local's stream, the
// poller npm start runs, the bundled consumer). Every item comes from the service's builders.
import { consumerMapping, startStreamPoller } from '../lib/stream-poller.mjs';
import { loaderClient, writeAll } from './loader.mjs';
import { invoke, median, percentile, resetRecords, summarize, takeRecords } from './measure.mjs';
import { PASSWORD } from './dataset.mjs';

const FOLLOWINGS = [1, 100, 1000, 7500];
const FANOUT_FOLLOWERS = [10, 1000, 10000];
const CELEBRITIES = 5;
const POSTS_PER_READER = 100;
const IMAGE = JSON.stringify(['https://images.bench.test/photo.jpg']);
const round = (n, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

export async function benchFeed({ root, endpoint, table, lib, handlers, warmup, iterations, say }) {
  const client = loaderClient(endpoint);
  const passwordHash = await lib.hashPassword(PASSWORD);
  const now = Date.now();
  const user = (id, extra = {}) => ({
    ...lib.newUserItem(id, { name: 'Feed Bench', username: `fb_${id.toLowerCase()}`, email: `${id.toLowerCase()}@bench.test`, passwordHash }, new Date(now).toISOString()),
    ...extra,
  });
  const ids = (n) => Array.from({ length: n }, () => lib.newId());
  // A session for each user the benchmark signs a token for (every authenticated request checks it).
  const sessions = new Map();
  const sessionOf = (id) => { if (!sessions.has(id)) sessions.set(id, lib.newSession({ id }, 'benchmark').item); return sessions.get(id); };
  const tokenOf = (id) => lib.signToken({ userId: id, sessionId: sessionOf(id).id, epoch: 0 });
  const post = (id, author, fanout = true) => ({
    ...lib.postItem(id, author, { image: IMAGE, image_public_id: '', caption: 'feed bench' }), ...(fanout ? {} : { fanout: false }),
  });

  // 1. Page cost: readers following 1 .. 7,500 accounts, and 100 regular plus 0 or 5 read-time authors.
  const authors = ids(Math.max(...FOLLOWINGS));
  const celebs = ids(CELEBRITIES);
  const readers = [
    ...FOLLOWINGS.map((following) => ({ id: lib.newId(), following, celebrities: 0 })),
    { id: lib.newId(), following: 100, celebrities: CELEBRITIES },
  ];
  function* items() {
    for (const a of authors) yield user(a, { postsCount: 1 });
    for (const c of celebs) yield user(c, { pullMode: true, followersCount: 20_000, postsCount: 30 });
    for (const c of celebs) for (let j = 0; j < 30; j++) yield post(lib.newId(), c, false);
    for (const r of readers) {
      yield user(r.id, { followingCount: r.following + r.celebrities });
      yield sessionOf(r.id);
      const at = new Date(now - 86_400_000).toISOString();
      for (let i = 0; i < r.following; i++) yield lib.followEdge(r.id, authors[i], at);
      for (const c of celebs.slice(0, r.celebrities)) {
        yield lib.followEdge(r.id, c, at);
        yield { ...lib.keys.pullSource(r.id, c), type: 'PULL', authorId: c };
      }
      // The reader's feed as fan-out leaves it: the newest posts of the accounts it follows.
      for (let j = 0; j < POSTS_PER_READER; j++) {
        const id = lib.newId();
        const author = authors[j % r.following];
        yield post(id, author);
        yield lib.homeEntry(r.id, id, author);
      }
    }
  }
  const loaded = await writeAll(client, table, items(), 16);
  say(`feed: loaded ${loaded} items`);
  const pages = [];
  for (const r of readers) {
    const token = await tokenOf(r.id);
    const calls = [];
    for (let k = 0; k < warmup + iterations; k++) {
      const out = await invoke(handlers.feed, 'GET /posts/feed', { token, query: { limit: '10' } });
      if (out.status !== 200) throw new Error(`feed page answered ${out.status}: ${out.body.slice(0, 200)}`);
      if (k >= warmup) calls.push({ ms: out.ms, ...summarize(out.records) });
    }
    pages.push({
      following: r.following + r.celebrities, readTimeAuthors: r.celebrities,
      dbCalls: median(calls.map((c) => c.dbCalls)), dbRoundTrips: median(calls.map((c) => c.dbRoundTrips)),
      rcu: round(median(calls.map((c) => c.rcu))), p50Ms: round(median(calls.map((c) => c.ms))),
    });
    say(`feed page, following ${r.following} (+${r.celebrities} read-time): ${JSON.stringify(pages[pages.length - 1])}`);
  }

  // 2 and 3 run the real pipeline: the table's stream, polled as npm start polls it, into the bundled consumer.
  const { functionName, ...mapping } = consumerMapping(root); // eslint-disable-line no-unused-vars
  const poller = startStreamPoller({ endpoint, tableName: table, ...mapping, startingPosition: 'LATEST', invoke: (event) => handlers.consumer(event) });
  await poller.ready();
  const settle = async () => { await poller.idle(); await poller.idle(); };

  // 2. Fan-out writes per post.
  const fanout = [];
  for (const n of FANOUT_FOLLOWERS) {
    const author = lib.newId();
    const followers = ids(n);
    const at = new Date(now - 3_600_000).toISOString();
    await writeAll(client, table, [user(author, { followersCount: n }), sessionOf(author), ...followers.map((f) => lib.followEdge(f, author, at))], 16);
    await settle(); // the follows' own reactions (backfills) are not this row's
    const token = await tokenOf(author);
    const created = await invoke(handlers.create, 'POST /posts/create', { token, body: { image: IMAGE, caption: 'fan-out' } });
    if (created.status !== 201) throw new Error(`create answered ${created.status}`);
    resetRecords();
    const t0 = performance.now();
    await settle();
    const ms = performance.now() - t0;
    const s = summarize(takeRecords());
    fanout.push({ followers: n, wcu: round(s.wcu), wcuPerFollower: round(s.wcu / n, 3), requests: s.dbCalls, ms: Math.round(ms) });
    say(`fan-out to ${n} followers: ${JSON.stringify(fanout[fanout.length - 1])}`);
  }

  // 3. Create to visible in a follower's feed (the follower reads as a client would, every 20 ms).
  const author = lib.newId();
  const reader = lib.newId();
  const others = ids(99);
  const at = new Date(now - 3_600_000).toISOString();
  await writeAll(client, table, [user(author, { followersCount: 100 }), sessionOf(author), user(reader, { followingCount: 1 }), sessionOf(reader), lib.followEdge(reader, author, at), ...others.map((f) => lib.followEdge(f, author, at))], 16);
  await settle();
  const authorToken = await tokenOf(author);
  const readerToken = await tokenOf(reader);
  const latencies = [];
  for (let k = 0; k < iterations; k++) {
    const t0 = performance.now();
    const created = await invoke(handlers.create, 'POST /posts/create', { token: authorToken, body: { image: IMAGE, caption: `visible ${k}` } });
    const id = JSON.parse(created.body).post._id;
    for (;;) {
      const page = await invoke(handlers.feed, 'GET /posts/feed', { token: readerToken, query: { limit: '1' } });
      if (JSON.parse(page.body).posts[0]?._id === id) break;
      if (performance.now() - t0 > 30_000) throw new Error('a post did not reach the feed within 30 s');
      await new Promise((r) => setTimeout(r, 20));
    }
    latencies.push(performance.now() - t0);
  }
  const visible = { posts: iterations, followers: 100, p50Ms: Math.round(median(latencies)), p95Ms: Math.round(percentile(latencies, 95)) };
  say(`create to visible: ${JSON.stringify(visible)}`);
  await poller.stop();
  client.destroy();
  return { pages, fanout, visible };
}

export function feedTable(feed) {
  const lines = [
    '| feed page (limit 10) | following | read-time authors | requests | round trips | RCU | p50 ms |',
    '|---|---|---|---|---|---|---|',
    ...feed.pages.map((p) => `| GET /posts/feed | ${p.following} | ${p.readTimeAuthors} | ${p.dbCalls} | ${p.dbRoundTrips} | ${p.rcu} | ${p.p50Ms} |`),
    '',
    '| fan-out of one post | followers | WCU | WCU per follower | requests | ms to complete (local) |',
    '|---|---|---|---|---|---|',
    ...feed.fanout.map((f) => `| POST /posts/create → stream | ${f.followers} | ${f.wcu} | ${f.wcuPerFollower} | ${f.requests} | ${f.ms} |`),
    '',
    '| create to visible in a follower\'s feed (local pipeline) | posts | p50 ms | p95 ms |',
    '|---|---|---|---|',
    `| author with ${feed.visible.followers} followers | ${feed.visible.posts} | ${feed.visible.p50Ms} | ${feed.visible.p95Ms} |`,
  ];
  return lines.join('\n');
}
