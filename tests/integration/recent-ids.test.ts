// The newest follower and following ids kept on each user item by the real change stream
// (lib/graph/recent.ts), and the lists and suggestions that present users from them
// without two edge Queries per user (docs/ARCHITECTURE.md, "Recent ids on the user item").
// The request counter is the benchmark's (scripts/bench/measure.mjs), installed before the modules load.
/* eslint-disable @typescript-eslint/no-require-imports */
(require('../../scripts/bench/measure.mjs') as { installDbMetrics: () => void }).installDbMetrics();
require('../support/own-stream-table');
const { users } = require('../support/posts') as typeof import('../support/posts');
const { block, follow, followers, unfollow } = require('../support/graph') as typeof import('../support/graph');
const { eventually, startTestStream, startTestStreamFromNow } = require('../support/stream') as typeof import('../support/stream');
const { getItem } = require('../support/db') as typeof import('../support/db');
const keys = require('../../lib/keys') as typeof import('../../lib/keys');
const { call } = require('../support/invoke') as typeof import('../support/invoke');
const { handler: suggestedH } = require('../../functions/users/suggested') as typeof import('../../functions/users/suggested');
const { refreshRecent } = require('../../lib/graph/recent') as typeof import('../../lib/graph/recent');
const { POPULAR_TOP } = require('../../lib/graph/popular') as typeof import('../../lib/graph/popular');
const { depths } = require('../../scripts/bench/measure.mjs') as { depths: (r: Rec[]) => Map<Rec, number> };
const { db, TABLE } = require('../../lib/db/client') as typeof import('../../lib/db/client');
const { DeleteCommand, UpdateCommand } = require('@aws-sdk/lib-dynamodb') as typeof import('@aws-sdk/lib-dynamodb');
/* eslint-enable @typescript-eslint/no-require-imports */
import type { TestStream } from '../support/stream';

// Its tests wait for the real stream to settle (27 registrations' mail, dozens of follows' reactions)
// before they count: over jest's 60 s on CI's two loaded cores, though a few seconds alone.
jest.setTimeout(180_000);

const SINK = Symbol.for('aperture.dbMetrics');
type Rec = { command: string; input: { IndexName?: string; ExpressionAttributeValues?: Record<string, { S?: string }>; RequestItems?: Record<string, { Keys: { PK: { S?: string }; SK: { S?: string } }[]; ConsistentRead?: boolean }> }; start: number; end: number };
/**
 * The DynamoDB requests `run` sends. The counter sees every request of this process, the stream
 * consumer's too (verification mail, notifications and their live messages): those are done
 * first, unless the test stopped the stream (`delivering` false).
 */
async function requestsOf(run: () => Promise<unknown>, delivering = true): Promise<Rec[]> {
  if (delivering) await stream.poller.idle();
  (globalThis as Record<symbol, unknown>)[SINK] = [];
  await run();
  return (globalThis as Record<symbol, Rec[]>)[SINK] ?? [];
}
/** Queries of someone's follower or following index (the per-user reads the item's arrays replace). */
const edgeQueries = (recs: Rec[], ids: string[]) => recs.filter((r) => r.command === 'QueryCommand'
  && Object.values(r.input.ExpressionAttributeValues ?? {}).some((v) => ids.some((id) => v.S === `FOLLOWERS#${id}` || v.S === `FOLLOWING#${id}`)));

const item = async (id: string) => (await getItem(keys.user(id)))!;
const current = async (id: string) => {
  const u = await item(id);
  return u.recentV !== undefined && u.recentV === (u.edgesV ?? 0);
};
type U = { _id: string; followers: string[]; following: string[] };

let stream: TestStream;
beforeAll(() => { stream = startTestStream(); });
afterAll(() => stream.poller.stop());
afterEach(() => expect(stream.deadLetters).toEqual([]));

describe('recent follower and following ids on the user item', () => {
  it('follow by follow, the stream keeps the newest ids of both users, newest first', async () => {
    const [a, b, c] = await users(3);
    expect((await item(b.id)).recentV).toBe(0);
    expect((await follow(a, b)).status).toBe(200);
    expect((await follow(c, b)).status).toBe(200);
    expect((await follow(a, c)).status).toBe(200);
    for (const u of [a, b, c]) expect(await eventually(() => current(u.id), Boolean)).toBe(true);
    expect(await item(b.id)).toMatchObject({ edgesV: 2, recentV: 2, recentFollowers: [c.id, a.id], recentFollowing: [] });
    expect(await item(a.id)).toMatchObject({ recentFollowers: [], recentFollowing: [c.id, b.id] });
    expect(await item(c.id)).toMatchObject({ recentFollowers: [a.id], recentFollowing: [b.id] });

    expect((await unfollow(a, b)).status).toBe(200);
    expect(await eventually(() => current(b.id), Boolean)).toBe(true);
    expect(await eventually(() => current(a.id), Boolean)).toBe(true);
    expect(await item(b.id)).toMatchObject({ recentFollowers: [c.id] });
    expect(await item(a.id)).toMatchObject({ recentFollowing: [c.id] });
  });

  it('keeps at most 10 ids, and refills from the index when one of them goes', async () => {
    const [star, ...fans] = await users(12);
    for (const f of fans) expect((await follow(f, star)).status).toBe(200);
    expect(await eventually(() => current(star.id), Boolean)).toBe(true);
    const newest = fans.slice(-10).reverse().map((f) => f.id);
    expect((await item(star.id)).recentFollowers).toEqual(newest);
    // The newest goes: the oldest of the 11 comes back from the index.
    expect((await unfollow(fans[10]!, star)).status).toBe(200);
    expect(await eventually(() => current(star.id), Boolean)).toBe(true);
    expect((await item(star.id)).recentFollowers).toEqual(fans.slice(0, 10).reverse().map((f) => f.id));
  });

  it('keeps the newest 20 followings (the suggestions\' sample) and the newest 10 followers', async () => {
    const [fan, ...stars] = await users(22);
    for (const s of stars) expect((await follow(fan, s)).status).toBe(200);
    for (const s of stars.slice(0, 12)) expect((await follow(s, fan)).status).toBe(200);
    expect(await eventually(() => current(fan.id), Boolean)).toBe(true);
    const it = await item(fan.id);
    expect(it.recentFollowing).toEqual(stars.slice(-20).reverse().map((s) => s.id));
    expect(it.recentFollowers).toEqual(stars.slice(2, 12).reverse().map((s) => s.id));
  });

  it('a block that removes follows moves the arrays of both users', async () => {
    const [a, b] = await users(2);
    await follow(a, b);
    await follow(b, a);
    await eventually(async () => (await item(a.id)).recentFollowers, (v) => Array.isArray(v) && v.length === 1);
    expect((await block(a, b)).status).toBe(200);
    for (const u of [a, b]) expect(await eventually(() => current(u.id), Boolean)).toBe(true);
    expect(await item(a.id)).toMatchObject({ recentFollowers: [], recentFollowing: [] });
    expect(await item(b.id)).toMatchObject({ recentFollowers: [], recentFollowing: [] });
  });

  it('a replayed or late change writes nothing: the arrays only move forward', async () => {
    const [a, b] = await users(2);
    await follow(a, b);
    expect(await eventually(() => current(b.id), Boolean)).toBe(true);
    const before = await item(b.id);
    expect(await refreshRecent(b.id)).toBe(false);
    expect(await item(b.id)).toEqual(before);
  });
});

describe('lists and suggestions presented from the arrays', () => {
  /** me follows f1, who follows x and y (the two suggestions), the arrays of all four settled. */
  const twoHops = async () => {
    const [me, f1, x, y] = await users(4);
    await follow(me, f1);
    await follow(f1, x);
    await follow(f1, y);
    for (const u of [me, f1, x, y]) expect(await eventually(() => current(u.id), Boolean)).toBe(true);
    return { me, f1, x, y };
  };

  it('a followers page reads no edge index per listed user once the arrays are current', async () => {
    const [owner, viewer, ...fans] = await users(6);
    for (const f of fans) await follow(f, owner);
    await follow(fans[0]!, fans[1]!);
    for (const u of [owner, ...fans]) expect(await eventually(() => current(u.id), Boolean)).toBe(true);
    let res: Awaited<ReturnType<typeof followers>> | undefined;
    const recs = await requestsOf(async () => { res = await followers(viewer, owner); });
    expect(res!.status).toBe(200);
    const list: U[] = res!.body.followers;
    expect(list.map((u) => u._id)).toEqual(fans.map((f) => f.id).reverse());
    expect(list.find((u) => u._id === fans[0]!.id)).toMatchObject({ following: [fans[1]!.id, owner.id], followers: [] });
    expect(list.find((u) => u._id === fans[1]!.id)).toMatchObject({ following: [owner.id], followers: [fans[0]!.id] });
    expect(edgeQueries(recs, fans.map((f) => f.id))).toEqual([]);
    // Caller (user, session), its block lists and the hidden accounts, the page, the owner and
    // relation, and the users with their relations (2 BatchGets at most): 8 at most.
    expect(recs.length).toBeLessThanOrEqual(8);
  });

  it('isFollowing from one Query of the caller\'s following index when that reads less than a key per listed user', async () => {
    const [owner, viewer, ...rest] = await users(27);
    const fans = rest.slice(0, 8);
    const others = rest.slice(8);
    // The viewer follows 21 accounts: fans[0] first (so not among its 20 newest ids), then
    // 17 others, then fans 5, 1 and 2.
    await follow(viewer, fans[0]!);
    for (const o of others) await follow(viewer, o);
    for (const f of [fans[5]!, fans[1]!, fans[2]!]) await follow(viewer, f);
    for (const f of fans) await follow(f, owner);
    for (const u of [owner, viewer, ...rest]) expect(await eventually(() => current(u.id), Boolean)).toBe(true);
    const me = await item(viewer.id);
    expect(me.followingCount).toBe(21);
    expect(me.recentFollowing).not.toContain(fans[0]!.id);
    let res: Awaited<ReturnType<typeof followers>> | undefined;
    const recs = await requestsOf(async () => { res = await followers(viewer, owner); });
    const followed = new Set([fans[0]!.id, fans[1]!.id, fans[2]!.id, fans[5]!.id]);
    expect(res!.body.followers.map((u: { _id: string; isFollowing: boolean }) => [u._id, u.isFollowing]))
      .toEqual(fans.map((f) => [f.id, followed.has(f.id)]).reverse());
    // One Query of the viewer's following and no follow key in the page's BatchGet.
    const followingQueries = recs.filter((r) => r.command === 'QueryCommand' && Object.values(r.input.ExpressionAttributeValues ?? {}).some((v) => v.S === keys.followingOf(viewer.id)));
    expect(followingQueries).toHaveLength(1);
    expect(recs.filter((r) => r.command === 'BatchGetItemCommand' && JSON.stringify(r.input).includes('FOLLOWS#'))).toEqual([]);
    expect(recs.length).toBeLessThanOrEqual(8);
  });

  it('a user whose arrays are behind (the stream has not caught up) is read from its edges: never an older answer', async () => {
    const [owner, viewer, fan, other] = await users(4);
    await follow(fan, owner);
    expect(await eventually(() => current(fan.id), Boolean)).toBe(true);
    // Stop delivering: the next follow moves fan's edgesV, and its arrays stay behind.
    await stream.poller.stop();
    try {
      await follow(other, fan);
      expect(await current(fan.id)).toBe(false);
      let res: Awaited<ReturnType<typeof followers>> | undefined;
      const recs = await requestsOf(async () => { res = await followers(viewer, owner); }, false);
      expect(res!.body.followers).toEqual([expect.objectContaining({ _id: fan.id, followers: [other.id], following: [owner.id] })]);
      expect(edgeQueries(recs, [fan.id])).toHaveLength(2);
    } finally {
      stream = await startTestStreamFromNow();
    }
  });

  it('suggestions are served from the cached ranking until the caller follows someone', async () => {
    const { me, x, y } = await twoHops();
    const ask = () => call(suggestedH, 'GET /users/suggested', { token: me.token, query: { limit: '10' } });
    let first: Awaited<ReturnType<typeof ask>> | undefined;
    const computing = await requestsOf(async () => { first = await ask(); });
    const top = (r: typeof first) => r!.body.users.slice(0, 2).map((u: U) => u._id).sort();
    expect(top(first)).toEqual([x.id, y.id].sort());
    expect(await getItem(keys.suggestions(me.id))).toMatchObject({ type: 'SUGGESTIONS', expiresAt: expect.any(Number) });

    let second: Awaited<ReturnType<typeof ask>> | undefined;
    const serving = await requestsOf(async () => { second = await ask(); });
    expect(second!.body).toEqual(first!.body);
    expect(serving.length).toBeLessThan(computing.length);
    expect(serving.filter((r) => r.command === 'QueryCommand' && r.input.IndexName === 'GSI3')).toEqual([]);

    // The caller's own follow invalidates it: x is followed now and is never suggested again.
    await follow(me, x);
    const third = await ask();
    expect(third.body.users.map((u: U) => u._id)).not.toContain(x.id);
    expect(third.body.users.map((u: U) => u._id)).toContain(y.id);
  });

  it('someone who blocked the caller since the ranking is left out of a cached answer', async () => {
    const [me, f1, x, y] = await users(4);
    await follow(me, f1);
    await follow(f1, x);
    await follow(f1, y);
    const ask = () => call(suggestedH, 'GET /users/suggested', { token: me.token, query: { limit: '10' } });
    expect((await ask()).body.users.map((u: U) => u._id)).toContain(x.id);
    await block(x, me);
    const after = await ask();
    expect(after.body.users.map((u: U) => u._id)).not.toContain(x.id);
    expect(after.body.users.map((u: U) => u._id)).toContain(y.id);
  });
  const ask = (u: { token: string }) => call(suggestedH, 'GET /users/suggested', { token: u.token, query: { limit: '10' } });
  const ids = (list: U[]) => list.map((u) => u._id);
  const followKeyReads = (recs: Rec[]) => recs.filter((r) => r.command === 'BatchGetItemCommand'
    && Object.values(r.input.RequestItems ?? {}).some((t) => t.Keys.some((k) => k.SK.S?.startsWith('FOLLOWS#'))));
  const roundTrips = (recs: Rec[]) => Math.max(0, ...depths(recs).values());

  it('a ranking reads the caller\'s samples and whole following from its own item: 4 round trips, authentication\'s included', async () => {
    const [me, f1, f2, x, y, fan] = await users(6);
    await follow(me, f1);
    await follow(me, f2);
    await follow(f1, x);
    await follow(f2, x);
    await follow(f1, y);
    await follow(fan, me);
    await follow(fan, y);
    for (const u of [me, f1, f2, x, y, fan]) expect(await eventually(() => current(u.id), Boolean)).toBe(true);
    let res: Awaited<ReturnType<typeof ask>> | undefined;
    const recs = await requestsOf(async () => { res = await ask(me); });
    expect(res!.status).toBe(200);
    const [first, second] = res!.body.users as (U & { followerBy: U[]; mutualFollowers: U[] })[];
    expect([first!._id, ids(first!.followerBy), ids(first!.mutualFollowers)]).toEqual([x.id, [f2.id, f1.id], []]);
    expect([second!._id, ids(second!.followerBy), ids(second!.mutualFollowers)]).toEqual([y.id, [f1.id], [fan.id]]);
    expect(edgeQueries(recs, [me.id])).toEqual([]);
    expect(followKeyReads(recs)).toEqual([]);
    // Authentication's reads and the cache item; the samples' items beside the most-followed
    // accounts; the candidates' items; the ranking's Put.
    expect(roundTrips(recs)).toBe(4);
  });

  it('an item holding fewer followings than its count and the sample (written when it kept 10) ranks from the index, to the same answer', async () => {
    const [me, x, ...followed] = await users(14);
    // The oldest of the 12 follows is the only one that leads to x: not among the 10 newest.
    for (const f of followed) await follow(me, f);
    await follow(followed[0]!, x);
    for (const u of [me, x, ...followed]) expect(await eventually(() => current(u.id), Boolean)).toBe(true);
    const full = await ask(me);
    expect(ids(full.body.users)[0]).toBe(x.id);

    await db.send(new UpdateCommand({
      TableName: TABLE, Key: keys.user(me.id), UpdateExpression: 'SET recentFollowing = :ten',
      ExpressionAttributeValues: { ':ten': (await item(me.id)).recentFollowing!.slice(0, 10) },
    }));
    await db.send(new DeleteCommand({ TableName: TABLE, Key: keys.suggestions(me.id) }));
    let res: Awaited<ReturnType<typeof ask>> | undefined;
    const recs = await requestsOf(async () => { res = await ask(me); });
    expect(res!.body).toEqual(full.body);
    // The sample's Query of the caller's following index (and, the item not showing its whole
    // following, the follow plan's, lib/graph/relations.ts).
    const sampleQueries = recs.filter((r) => r.command === 'QueryCommand' && (r.input as { Limit?: number }).Limit === 20
      && Object.values(r.input.ExpressionAttributeValues ?? {}).some((v) => v.S === keys.followingOf(me.id)));
    expect(sampleQueries).toHaveLength(1);
  });

  it('while the stream is behind the caller\'s follows, its follow keys are read strongly consistent: a follow of a moment ago is never suggested', async () => {
    const { me, x, y } = await twoHops();
    await stream.poller.stop();
    try {
      expect((await follow(me, x)).status).toBe(200);
      expect(await current(me.id)).toBe(false);
      let res: Awaited<ReturnType<typeof ask>> | undefined;
      const recs = await requestsOf(async () => { res = await ask(me); }, false);
      expect(ids(res!.body.users)).not.toContain(x.id);
      expect(ids(res!.body.users)).toContain(y.id);
      const reads = followKeyReads(recs);
      expect(reads).toHaveLength(1);
      expect(Object.values(reads[0]!.input.RequestItems!)[0]!.ConsistentRead).toBe(true);
    } finally {
      stream = await startTestStreamFromNow();
    }
  });

  it('while the graph alone fills the ranking, no most-followed account\'s item is read; when too many graph candidates are gone, they are read after all', async () => {
    // me follows f1 and f2, who follow 10 accounts each: 20 graph candidates, a ranking's depth
    // for limit 10. star, followed by 8 fans, is among the most-followed (read from the shards:
    // the bound is 0 here), and ranks below every graph candidate.
    const [me, f1, f2, star, ...rest] = await users(32);
    const xs = rest.slice(0, 20);
    const fans = rest.slice(20);
    const done = await Promise.all([
      follow(me, f1), follow(me, f2),
      ...xs.map((x, i) => follow(i < 10 ? f1 : f2, x)),
      ...fans.map((fan) => follow(fan, star)),
    ]);
    expect(done.every((r) => r.status === 200)).toBe(true);
    // Every user's recent ids settled: the stream's reactions read users' items too, and they
    // would show in the requests counted below.
    for (const u of [me, f1, f2, star, ...xs, ...fans]) expect(await eventually(() => current(u.id), Boolean)).toBe(true);
    // And the follows' other reactions (notifications, their live messages) are done: they
    // would be counted too.
    await stream.poller.idle();
    const readsItemOf = (recs: Rec[], id: string) => recs.some((r) => r.command === 'BatchGetItemCommand'
      && Object.values(r.input.RequestItems ?? {}).some((t) => t.Keys.some((k) => k.PK.S === keys.user(id).PK)));
    const bound = POPULAR_TOP.maxAgeMs;
    POPULAR_TOP.maxAgeMs = 0;
    try {
      let res: Awaited<ReturnType<typeof ask>> | undefined;
      const recs = await requestsOf(async () => { res = await ask(me); });
      expect(ids(res!.body.users)).toHaveLength(10);
      expect(xs.map((x) => x.id)).toEqual(expect.arrayContaining(ids(res!.body.users)));
      expect(readsItemOf(recs, star.id)).toBe(false);
      expect(roundTrips(recs)).toBe(4);

      // One graph candidate's item shows it suspended (its hiding not read yet): 19 are left, and
      // the ranking reads the most-followed accounts' items to fill its depth.
      await db.send(new UpdateCommand({
        TableName: TABLE, Key: keys.user(xs[0]!.id), UpdateExpression: 'SET suspendedAt = :now',
        ExpressionAttributeValues: { ':now': new Date().toISOString() },
      }));
      await db.send(new DeleteCommand({ TableName: TABLE, Key: keys.suggestions(me.id) }));
      const again = await requestsOf(async () => { res = await ask(me); });
      expect(ids(res!.body.users)).toHaveLength(10);
      expect(ids(res!.body.users)).not.toContain(xs[0]!.id);
      expect(readsItemOf(again, star.id)).toBe(true);
      expect(roundTrips(again)).toBe(5);
      // The ranking is as deep as before: the 19 graph candidates left, then the most-followed
      // account that ranks first among the rest (star read with them: the first answer above
      // did not read it although it was among them).
      const ranked = ((await getItem(keys.suggestions(me.id)))!.ranked as string[]).map((r) => r.split('|')[0]!);
      expect(ranked).toHaveLength(20);
      expect(ranked.slice(0, 19).sort()).toEqual(xs.slice(1).map((x) => x.id).sort());
      expect(xs.map((x) => x.id)).not.toContain(ranked[19]);
    } finally {
      POPULAR_TOP.maxAgeMs = bound;
    }
  });
});
