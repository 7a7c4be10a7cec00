import '../support/own-table';
import { call } from '../support/invoke';
import { makeUser, makeUsers } from '../support/factories';
import { makePost, users } from '../support/posts';
import { block, follow } from '../support/graph';
import { handler as exploreH } from '../../functions/posts/explore';
import { handler as like } from '../../functions/posts/like';
import { db } from '../../lib/db/client';
import * as keys from '../../lib/keys';
import { allFollowing } from '../../lib/posts/explore';
import { getItem, requestsOf } from '../support/db';
import { handler as deletePost } from '../../functions/posts/delete';
import { FEED_SHARDS, shardOf } from '../../lib/keys';
import { mute, setPrivate, unmute } from '../support/private';
import { createPost, postItem } from '../../lib/posts/write';
import { newId } from '../../lib/ids';

async function walk(token: string, limit: number) {
  const ids: string[] = [];
  const totals = new Set<number>();
  let pages = 0;
  for (let page = 1; ; page++) {
    const res = await call(exploreH, 'GET /posts/explore', { token, query: { page: String(page), limit: String(limit) } });
    expect(res.status).toBe(200);
    const p = res.body.pagination;
    totals.add(p.totalPosts);
    expect(p).toEqual({ currentPage: page, totalPages: Math.ceil(p.totalPosts / limit), totalPosts: p.totalPosts, hasNextPage: page < p.totalPages, hasPrevPage: page > 1 });
    ids.push(...res.body.posts.map((x: { _id: string }) => x._id));
    pages++;
    if (!p.hasNextPage) break;
  }
  return { ids, totals, pages };
}


/** The 8 shards of the post counter, in shard order. */
const counterShards = async () => Promise.all(Array.from({ length: FEED_SHARDS }, async (_, s) => Number((await getItem(keys.postCounterShard(s)))?.count ?? 0)));

describe('the post counter behind explore\'s totals', () => {
  it('a post moves exactly its own shard: one up when created, one down when deleted', async () => {
    const [author] = await users(1);
    const before = await counterShards();
    const post = await makePost(author);
    const shard = shardOf(post._id, FEED_SHARDS);
    const created = await counterShards();
    expect(created).toEqual(before.map((n, s) => (s === shard ? n + 1 : n)));
    const res = await call(deletePost, 'DELETE /posts/{post_id}', { token: author.token, params: { post_id: post._id } });
    expect(res.status).toBe(200);
    expect(await counterShards()).toEqual(before);
  });
});

describe('GET /posts/explore', () => {
  it('leaves out the caller, followed authors and both sides of a block; full walk matches totalPosts exactly', async () => {
    const [me, followed, blockedByMe, blocksMe, stranger, stranger2] = await users(6);
    const own = await makePost(me);
    const hidden = [await makePost(followed), await makePost(followed), await makePost(blockedByMe), await makePost(blocksMe)];
    const visible = [await makePost(stranger), await makePost(stranger2), await makePost(stranger)];
    expect((await follow(me, followed)).status).toBe(200);
    expect((await block(me, blockedByMe)).status).toBe(200);
    expect((await block(blocksMe, me)).status).toBe(200);
    await call(like, 'POST /posts/like/{post_id}', { token: me.token, params: { post_id: visible[1]!._id } });

    // This file has a table of its own and this test runs first: the visible posts are exactly these.
    const { ids, totals } = await walk(me.token, 2);
    expect([...totals]).toEqual([visible.length]);
    expect(ids).toEqual(visible.map((v) => v._id).reverse()); // each once, newest first
    for (const h of [own, ...hidden]) expect(ids).not.toContain(h._id);

    const first = await call(exploreH, 'GET /posts/explore', { token: me.token, query: { limit: '50' } });
    const liked = first.body.posts.find((p: { _id: string }) => p._id === visible[1]!._id);
    expect(liked).toMatchObject({ isLiked: true, isBookmarked: false, likesCount: 1, commentsCount: 0, likes: [me.id] });
  });

  it('keeps exact totals and pages when many posts of followed authors come first', async () => {
    const [me, prolific, other] = await users(3);
    const older = [await makePost(other), await makePost(other)];
    for (let i = 0; i < 30; i++) await makePost(prolific);
    expect((await follow(me, prolific)).status).toBe(200);
    const { ids, totals } = await walk(me.token, 1);
    expect(ids.length).toBe([...totals][0]);
    for (const o of older) expect(ids).toContain(o._id);
    expect(new Set(ids).size).toBe(ids.length);
    const res = await call(exploreH, 'GET /posts/explore', { token: me.token, query: { limit: '2' } });
    expect(res.body.posts.every((p: { author: string }) => p.author !== prolific.id)).toBe(true);
  });

  it('answers an empty page past the end with correct totals', async () => {
    const me = await makeUser();
    const res = await call(exploreH, 'GET /posts/explore', { token: me.token, query: { page: '99999', limit: '50' } });
    expect(res.status).toBe(200);
    expect(res.body.posts).toEqual([]);
    expect(res.body.pagination.totalPosts).toBeGreaterThan(0);
    expect(res.body.pagination).toMatchObject({ currentPage: 99999, hasNextPage: false, hasPrevPage: true });
  });

  it('answers any page a JSON number holds; one past the end is empty and reads no feed', async () => {
    const me = await makeUser();
    const first = await call(exploreH, 'GET /posts/explore', { token: me.token, query: { limit: '50' } });
    const sent = jest.spyOn(db, 'send');
    try {
      for (const page of ['1000000', String(Number.MAX_SAFE_INTEGER)]) {
        sent.mockClear();
        const res = await call(exploreH, 'GET /posts/explore', { token: me.token, query: { page, limit: '50' } });
        expect(res.status).toBe(200);
        expect(res.body.posts).toEqual([]);
        expect(res.body.pagination).toEqual({
          currentPage: Number(page), totalPages: first.body.pagination.totalPages, totalPosts: first.body.pagination.totalPosts, hasNextPage: false, hasPrevPage: true,
        });
        const feedQueries = sent.mock.calls.filter(([c]) => JSON.stringify(c.input).includes(`"${keys.feedShard(0).slice(0, -1)}`));
        expect(feedQueries).toEqual([]);
      }
    } finally {
      sent.mockRestore();
    }
    const over = await call(exploreH, 'GET /posts/explore', { token: me.token, query: { page: '9007199254740992' } });
    expect(over.status).toBe(400);
    expect(over.body.details).toEqual([{ path: 'page', message: expect.stringMatching(/at most 9007199254740991/) }]);
  });

  it.each([[{ page: '0' }], [{ page: '-1' }], [{ page: 'abc' }], [{ limit: '0' }], [{ limit: '51' }], [{ limit: '2.5' }], [{ cursor: 'x' }]])(
    'refuses %j with 400', async (query) => {
      const me = await makeUser();
      const res = await call(exploreH, 'GET /posts/explore', { token: me.token, query });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    },
  );
});

describe('the following list explore leaves out (allFollowing)', () => {
  // Pages of 5 follows stand in for 1 MB pages (~2,500 follows): the same turns, at a test's size.
  const pages = { limit: 5 };
  const followingQueries = (inputs: Record<string, unknown>[], userId: string) => inputs
    .filter((i) => (i.ExpressionAttributeValues as Record<string, unknown> | undefined)?.[':pk'] === keys.followingOf(userId))
    .map((i) => ({ forward: i.ScanIndexForward, range: String(i.KeyConditionExpression).includes('BETWEEN'), after: i.ExclusiveStartKey !== undefined }));
  let me: { id: string; token: string };
  let followed: string[];

  /** allFollowing's answer for `me`, checked whole, and the Queries it sent. */
  const readsOfMine = async (count: number, p: { limit?: number } = pages) => {
    const { result, inputs } = await requestsOf(() => allFollowing(me.id, Promise.resolve(count), p));
    expect([...result].sort()).toEqual([...followed].sort());
    return followingQueries(inputs, me.id);
  };

  beforeAll(async () => {
    const all = await makeUsers(13);
    me = all[0]!;
    followed = all.slice(1).map((u) => u.id);
    for (const id of followed) expect((await follow(me, id)).status).toBe(200);
  });

  it('reads a list one page holds once, from its newest end: never both ends of one page', async () => {
    const [few, a, b] = await makeUsers(3);
    for (const t of [a!, b!]) expect((await follow(few!, t)).status).toBe(200);
    const { result, inputs } = await requestsOf(() => allFollowing(few!.id, Promise.resolve(2), pages));
    expect([...result].sort()).toEqual([a!.id, b!.id].sort());
    expect(followingQueries(inputs, few!.id)).toEqual([{ forward: false, range: false, after: false }]);
  });

  it('reads both ends at once when the count is past a page, then only the middle between them', async () => {
    expect(await readsOfMine(followed.length)).toEqual([
      { forward: false, range: false, after: false },
      { forward: true, range: false, after: false },
      { forward: true, range: true, after: false },
    ]);
  });

  it('skips the middle when the two ends meet', async () => {
    expect(await readsOfMine(followed.length, { limit: 7 })).toEqual([
      { forward: false, range: false, after: false },
      { forward: true, range: false, after: false },
    ]);
  });

  it('reads one end for a count of exactly a page, and fails with the caller\'s read', async () => {
    const reads = await readsOfMine(pages.limit);
    expect(reads[0]).toEqual({ forward: false, range: false, after: false });
    expect(reads.filter((q) => q.forward)).toEqual([]);
    const gone = new Error('the caller\'s item could not be read');
    await expect(allFollowing(me.id, Promise.reject(gone), pages)).rejects.toBe(gone);
  });

  it('stays exact when the count was low: the newest end is read on to its end', async () => {
    expect(await readsOfMine(3)).toEqual([
      { forward: false, range: false, after: false },
      { forward: false, range: false, after: true },
      { forward: false, range: false, after: true },
    ]);
  });

  it('explore passes the caller\'s own count: one Query of a short following list; the excluded authors\' counts read eventually consistent', async () => {
    const [few, a] = await makeUsers(2);
    expect((await follow(few!, a!)).status).toBe(200);
    const { result, inputs } = await requestsOf(() => call(exploreH, 'GET /posts/explore', { token: few!.token, query: { limit: '5' } }));
    expect(result.status).toBe(200);
    expect(followingQueries(inputs, few!.id)).toEqual([{ forward: false, range: false, after: false }]);
    // The postsCount BatchGet: half a read unit per excluded author (the contract's exactness holds while no data changes).
    const counts = inputs.flatMap((i) => Object.values((i.RequestItems ?? {}) as Record<string, { Keys: unknown[]; ProjectionExpression?: string; ConsistentRead?: boolean }>))
      .filter((r) => r.ProjectionExpression === 'PK, SK, postsCount, isPrivate');
    expect(counts).toEqual([expect.objectContaining({ Keys: [keys.user(a!.id)], ConsistentRead: false })]);
  });
});

describe("explore's total without private and muted authors (contract sections 5 and 18)", () => {
  /** What the post counter's shards hold: all posts, and the private accounts' among them. */
  const counted = async () => {
    const shards = await Promise.all(Array.from({ length: FEED_SHARDS }, (_, s) => getItem(keys.postCounterShard(s))));
    return { all: shards.reduce((n, i) => n + Number(i?.count ?? 0), 0), private: shards.reduce((n, i) => n + Number(i?.privatePosts ?? 0), 0) };
  };
  const ok = async (res: Promise<{ status: number }>) => expect((await res).status).toBe(200);
  /** A full walk: the ids it yields, checked to be as many as every page's totalPosts. */
  const walked = async (token: string) => {
    const { ids, totals } = await walk(token, 3);
    expect([...totals]).toEqual([ids.length]);
    expect(new Set(ids).size).toBe(ids.length);
    return ids;
  };

  it('leaves them out of pages and total alike, and follows each privacy change and post of theirs', async () => {
    const [me, priv, noisy, plain] = await users(4);
    const before = await walked(me.token);
    const early = [await makePost(priv), await makePost(priv)];
    await ok(setPrivate(priv, true)); // its 2 posts move to the private count
    const late = await makePost(priv); // counted private at once
    const loud = [await makePost(noisy), await makePost(noisy)];
    await ok(mute(me, noisy));
    const seen = await makePost(plain);
    expect(await walked(me.token)).toEqual([seen._id, ...before]);

    // A private account's deletion takes its post from the private count.
    await ok(call(deletePost, 'DELETE /posts/{post_id}', { token: priv.token, params: { post_id: early[0]!._id } }));
    expect(await walked(me.token)).toEqual([seen._id, ...before]);
    await ok(setPrivate(priv, false));
    await ok(unmute(me, noisy));
    const all = await walked(me.token);
    for (const p of [early[1]!, late, ...loud, seen]) expect(all).toContain(p._id);
    expect(all).not.toContain(early[0]!._id);
    expect(all).toHaveLength(before.length + 5);
  });

  it("checks a growing number of authors ahead when the newest posts are private accounts': a few rounds, not one per page", async () => {
    const [me, plain] = await users(2);
    const shown = [await makePost(plain), await makePost(plain)];
    const privates = await makeUsers(40);
    for (const p of privates) {
      await ok(setPrivate(p, true));
      await makePost(p);
    }
    const { result, inputs } = await requestsOf(() => call(exploreH, 'GET /posts/explore', { token: me.token, query: { limit: '2' } }));
    expect(result.body.posts.map((p: { _id: string }) => p._id)).toEqual(shown.map((p) => p._id).reverse());
    // The privacy reads of the page (user items, isPrivate alone): one per page of 2 private
    // authors would be 21; checking twice as many ahead each round makes it 7 (2, 4, 6, 10, 18,
    // 34 authors, then the last).
    const privacyReads = inputs.filter((i) => Object.values((i.RequestItems ?? {}) as Record<string, { ProjectionExpression?: string }>)
      .some((r) => r.ProjectionExpression === 'PK, SK, isPrivate'));
    expect(privacyReads.length).toBeLessThanOrEqual(7);
  });

  it("a private caller's own posts are not taken off twice", async () => {
    const [me] = await users(1);
    const before = await walked(me.token);
    await makePost(me);
    await ok(setPrivate(me, true));
    await makePost(me);
    expect(await walked(me.token)).toEqual(before);
  });

  it('a post written as its author turns private counts as private (written again with the state as it is)', async () => {
    const [author] = await users(1);
    await ok(setPrivate(author, true));
    const start = await counted();
    // As a creation that read its author public just before the edit committed.
    const post = postItem(newId(), author.id, { image: '["https://img.test/a.jpg"]', image_public_id: '', caption: '' });
    await createPost(post, { traceId: `stale-${author.id}`, scenarioId: '', stepId: '', simTimestamp: Date.now() }, {}, [], false, false);
    expect(await counted()).toEqual({ all: start.all + 1, private: start.private + 1 });
    expect((await getItem(keys.user(author.id)))!.postsCount).toBe(1);
  });
});
