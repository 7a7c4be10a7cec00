import { call } from '../support/invoke';
import { makeUser, makeUsers } from '../support/factories';
import { getItem, queryAll } from '../support/db';
import { makePost, users } from '../support/posts';
import { block } from '../support/graph';
import { handler as create } from '../../functions/posts/create';
import { handler as getPostH } from '../../functions/posts/get';
import { handler as userPosts } from '../../functions/posts/user';
import { handler as like } from '../../functions/posts/like';
import { handler as unlike } from '../../functions/posts/unlike';
import { handler as bookmark } from '../../functions/posts/bookmark';
import { handler as unbookmark } from '../../functions/posts/unbookmark';
import { handler as likesH } from '../../functions/posts/likes';
import { handler as trace } from '../../functions/logs/trace';
import * as keys from '../../lib/keys';
import { FEED_SHARDS, shardOf } from '../../lib/keys';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../../lib/db/client';
import { batchWrite } from '../../lib/db/batch';
import { newId } from '../../lib/ids';
import { postItem } from '../../lib/posts/write';
import { EAGER_DEPTH } from '../../lib/posts/pages';

const img = JSON.stringify(['https://cdn.example.test/a.jpg']);
const likeEdges = async (postId: string) => (await queryAll(`POST#${postId}`)).filter((i) => String(i.SK).startsWith('LIKE#'));

describe('POST /posts/create', () => {
  it('takes application/json in any letter case and with parameters (and only that type: tests/security)', async () => {
    const u = await makeUser();
    for (const type of ['application/json; charset=utf-8', 'Application/JSON', 'application/json ; charset="UTF-8"']) {
      const res = await call(create, 'POST /posts/create', { token: u.token, rawBody: JSON.stringify({ image: img, caption: type }), headers: { 'content-type': type } });
      expect(res.status).toBe(201);
    }
  });

  it('creates the post, moves the counters and writes the log record', async () => {
    const u = await makeUser();
    const traceId = `t-${u.id}`;
    const res = await call(create, 'POST /posts/create', {
      token: u.token, headers: { 'X-Trace-Id': traceId },
      body: { image: ['https://cdn.example.test/1.jpg', 'https://cdn.example.test/2.jpg'], caption: '  hello  ' },
    });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Post created successfully');
    const post = res.body.post;
    expect(Object.keys(post).sort()).toEqual(['_id', 'altText', 'author', 'caption', 'createdAt', 'hashtags', 'image', 'image_public_id', 'likes', 'mentions', 'updatedAt']);
    expect(post).toMatchObject({ author: u.id, caption: 'hello', image_public_id: '', likes: [], altText: ['', ''], hashtags: [], mentions: [], image: '["https://cdn.example.test/1.jpg","https://cdn.example.test/2.jpg"]' });
    expect(post.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect((await getItem(keys.user(u.id)))!.postsCount).toBe(1);
    const item = await getItem(keys.post(post._id));
    expect(item).toMatchObject({ GSI1PK: keys.postsOf(u.id), GSI2PK: keys.feedShard(shardOf(post._id, FEED_SHARDS)) });
    // The post counter's shard moves too: tests/integration/posts-explore.test.ts (a table of its own, where it is exact).
    const logs = await call(trace, 'GET /logs/trace/{traceId}', { token: u.token, params: { traceId } });
    expect(logs.body.data.logs.map((l: { action: { type: string } }) => l.action.type)).toEqual(['POST_CREATED']);
  });

  it('refuses bad images with 400 and writes nothing', async () => {
    const u = await makeUser();
    for (const image of ['javascript:alert(1)', 'data:image/png;base64,AA', '/relative.jpg', '[]', ['ftp://x.test/a.jpg']]) {
      const res = await call(create, 'POST /posts/create', { token: u.token, body: { image } });
      expect(res.status).toBe(400);
      expect(res.body.details[0].path).toBe('image');
    }
    expect((await getItem(keys.user(u.id)))!.postsCount).toBe(0);
  });

  it('ten concurrent creates with one Idempotency-Key create one post; each other answer is its replay or 409 IDEMPOTENCY_KEY_IN_USE', async () => {
    const u = await makeUser();
    const send = () => call(create, 'POST /posts/create', {
      token: u.token, headers: { 'Idempotency-Key': `key-${u.id}` }, body: { image: img, caption: 'once' },
    });
    const results = await Promise.all(Array.from({ length: 10 }, send));
    const created = results.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(results.filter((r) => r.status !== 201).map((r) => [r.status, r.body.code])).toEqual(
      Array(10 - created.length).fill([409, 'IDEMPOTENCY_KEY_IN_USE']));
    expect(new Set(created.map((r) => r.body.post._id)).size).toBe(1);
    expect(new Set(created.map((r) => r.text)).size).toBe(1);
    // Once answered, a repeat is the first answer again.
    expect((await send()).text).toBe(created[0]!.text);
    expect((await getItem(keys.user(u.id)))!.postsCount).toBe(1);
    const list = await call(userPosts, 'GET /posts/user/{identifier}', { token: u.token, params: { identifier: u.id } });
    expect(list.body.posts).toHaveLength(1);
  });
});

describe('GET /posts/{post_id} and GET /posts/user/{identifier}', () => {
  it('answers the post with the caller\'s flags and counts', async () => {
    const [a, b] = await users(2);
    const p = await makePost(a);
    expect((await call(like, 'POST /posts/like/{post_id}', { token: b.token, params: { post_id: p._id } })).status).toBe(200);
    await call(bookmark, 'POST /posts/bookmark/{post_id}', { token: b.token, params: { post_id: p._id } });
    const asB = await call(getPostH, 'GET /posts/{post_id}', { token: b.token, params: { post_id: p._id } });
    expect(asB.status).toBe(200);
    expect(asB.body.post).toMatchObject({ _id: p._id, likes: [b.id], isLiked: true, isBookmarked: true, likesCount: 1, commentsCount: 0 });
    const asA = await call(getPostH, 'GET /posts/{post_id}', { token: a.token, params: { post_id: p._id } });
    expect(asA.body.post).toMatchObject({ isLiked: false, isBookmarked: false, likesCount: 1 });
    expect((await call(getPostH, 'GET /posts/{post_id}', { token: a.token, params: { post_id: '01ARZ3NDEKTSV4RRFFQ69G5FAV' } })).status).toBe(404);
    expect((await call(getPostH, 'GET /posts/{post_id}', { token: a.token, params: { post_id: 'nope' } })).status).toBe(400);
  });

  it('pages an author\'s posts newest first, by id or username, with exact totals', async () => {
    const [a, b] = await users(2);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await makePost(a))._id);
    const newest = [...ids].reverse();
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await call(userPosts, 'GET /posts/user/{identifier}', { token: b.token, params: { identifier: page === 2 ? a.username.toUpperCase() : a.id }, query: { page: String(page), limit: '3' } });
      expect(res.status).toBe(200);
      expect(res.body.pagination).toEqual({ currentPage: page, totalPages: 3, totalPosts: 7, hasNextPage: page < 3, hasPrevPage: page > 1 });
      seen.push(...res.body.posts.map((p: { _id: string }) => p._id));
      for (const p of res.body.posts) expect(p).toMatchObject({ isLiked: false, isBookmarked: false, likesCount: 0, commentsCount: 0 });
    }
    expect(seen).toEqual(newest);
    const past = await call(userPosts, 'GET /posts/user/{identifier}', { token: b.token, params: { identifier: a.id }, query: { page: '9', limit: '3' } });
    expect(past.body.posts).toEqual([]);
    expect(past.body.pagination.totalPosts).toBe(7);
    for (const query of [{ page: '0' }, { limit: '0' }, { limit: '51' }, { page: 'x' }, { page: '1.5' }, { other: '1' }] as Record<string, string>[]) {
      const bad = await call(userPosts, 'GET /posts/user/{identifier}', { token: b.token, params: { identifier: a.id }, query });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('VALIDATION_ERROR');
    }
    expect((await call(userPosts, 'GET /posts/user/{identifier}', { token: b.token, params: { identifier: 'nobody_here_x' } })).status).toBe(404);
  });

  it('deep pages of an author read only once the total says they hold posts; past the end reads nothing', async () => {
    const [a, b] = await users(2);
    const N = EAGER_DEPTH + 5;
    const ids = Array.from({ length: N }, () => newId());
    // Stored as creation stores them, minus the global feed's keys (this table's feed counters stay exact).
    await batchWrite(ids.map((id) => {
      const { GSI2PK: _pk, GSI2SK: _sk, ...item } = postItem(id, a.id, { image: img, caption: 'deep', image_public_id: '' });
      return { PutRequest: { Item: item } };
    }));
    await db.send(new UpdateCommand({ TableName: TABLE, Key: keys.user(a.id), UpdateExpression: 'SET postsCount = :n', ExpressionAttributeValues: { ':n': N } }));
    const newest = [...ids].reverse();
    const page = async (n: number | string) => {
      const res = await call(userPosts, 'GET /posts/user/{identifier}', { token: b.token, params: { identifier: a.id }, query: { page: String(n), limit: '2' } });
      expect(res.status).toBe(200);
      expect(res.body.pagination.totalPosts).toBe(N);
      return res.body.posts.map((p: { _id: string }) => p._id);
    };
    expect(await page(EAGER_DEPTH / 2 + 1)).toEqual(newest.slice(EAGER_DEPTH, EAGER_DEPTH + 2));
    expect(await page(EAGER_DEPTH / 2 + 3)).toEqual(newest.slice(EAGER_DEPTH + 4));
    const sent = jest.spyOn(db, 'send');
    try {
      for (const n of [EAGER_DEPTH / 2 + 4, Number.MAX_SAFE_INTEGER]) {
        sent.mockClear();
        expect(await page(n)).toEqual([]);
        expect(sent.mock.calls.filter(([c]) => JSON.stringify(c.input).includes(keys.postsOf(a.id)))).toEqual([]);
      }
    } finally {
      sent.mockRestore();
    }
  });
});

describe('likes and bookmarks', () => {
  it('40 users liking one post at once: likesCount == like edges == 40', async () => {
    const author = await makeUser();
    const p = await makePost(author);
    const fans = await makeUsers(40);
    const res = await Promise.all(fans.map((f) => call(like, 'POST /posts/like/{post_id}', { token: f.token, params: { post_id: p._id } })));
    expect(res.every((r) => r.status === 200 && r.body.isLiked === true)).toBe(true);
    expect((await getItem(keys.post(p._id)))!.likesCount).toBe(40);
    expect(await likeEdges(p._id)).toHaveLength(40);
  });

  it('one user liking 20 times at once leaves one like; unlike twice leaves none', async () => {
    const [a, b] = await users(2);
    const p = await makePost(a);
    const res = await Promise.all(Array.from({ length: 20 }, () => call(like, 'POST /posts/like/{post_id}', { token: b.token, params: { post_id: p._id } })));
    expect(res.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect((await getItem(keys.post(p._id)))!.likesCount).toBe(1);
    expect(await likeEdges(p._id)).toHaveLength(1);
    for (let i = 0; i < 2; i++) {
      const u = await call(unlike, 'POST /posts/unlike/{post_id}', { token: b.token, params: { post_id: p._id } });
      expect(u.status).toBe(200);
      expect(u.body).toEqual({ success: true, message: 'Post unliked successfully', isLiked: false, likesCount: 0 });
    }
    expect(await likeEdges(p._id)).toHaveLength(0);
  });

  it('bookmarks idempotently and shows them on the own user only while the post lives', async () => {
    const [a, b] = await users(2);
    const p = await makePost(a);
    for (let i = 0; i < 2; i++) {
      const r = await call(bookmark, 'POST /posts/bookmark/{post_id}', { token: b.token, params: { post_id: p._id } });
      expect(r.body).toEqual({ success: true, message: 'Post bookmarked successfully', isBookmarked: true });
    }
    expect(await getItem(keys.bookmark(b.id, p._id))).toMatchObject({ userId: b.id, postId: p._id, GSI2PK: keys.bookmarkedByOf(p._id) });
    const un = await call(unbookmark, 'POST /posts/unbookmark/{post_id}', { token: b.token, params: { post_id: p._id } });
    expect(un.body).toEqual({ success: true, message: 'Bookmark removed successfully', isBookmarked: false });
    expect(await getItem(keys.bookmark(b.id, p._id))).toBeUndefined();
  });

  it('GET /posts/{id}/likes pages likers newest first with isFollowing and leaves out blocked users', async () => {
    const author = await makeUser();
    const p = await makePost(author);
    const [viewer, ...fans] = await users(6);
    for (const f of fans) await call(like, 'POST /posts/like/{post_id}', { token: f.token, params: { post_id: p._id } });
    expect((await block(viewer, fans[4]!)).status).toBe(200); // the viewer blocked the newest liker
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await call(likesH, 'GET /posts/{post_id}/likes', { token: viewer.token, params: { post_id: p._id }, query: { limit: '2', ...(cursor ? { cursor } : {}) } });
      expect(res.status).toBe(200);
      for (const u of res.body.likes) { expect(u.isFollowing).toBe(false); expect(u).not.toHaveProperty('email'); }
      seen.push(...res.body.likes.map((u: { _id: string }) => u._id));
      cursor = res.body.pagination.nextCursor ?? undefined;
      expect(res.body.pagination.hasMore).toBe(cursor !== undefined);
    } while (cursor);
    expect(seen).toEqual([fans[3]!.id, fans[2]!.id, fans[1]!.id, fans[0]!.id]);
    const bad = await call(likesH, 'GET /posts/{post_id}/likes', { token: viewer.token, params: { post_id: p._id }, query: { cursor: 'garbage!' } });
    expect(bad.status).toBe(400);
    expect((await call(likesH, 'GET /posts/{post_id}/likes', { token: viewer.token, params: { post_id: p._id }, query: { limit: '101' } })).status).toBe(400);
  });

  it('GET /posts/{id}/likes shows a liking caller its own object, bookmarks included', async () => {
    const [author, me, fan] = await users(3);
    const p = await makePost(author);
    const saved = await makePost(fan);
    expect((await call(bookmark, 'POST /posts/bookmark/{post_id}', { token: me.token, params: { post_id: saved._id } })).status).toBe(200);
    for (const u of [me, fan]) expect((await call(like, 'POST /posts/like/{post_id}', { token: u.token, params: { post_id: p._id } })).status).toBe(200);
    const res = await call(likesH, 'GET /posts/{post_id}/likes', { token: me.token, params: { post_id: p._id } });
    expect(res.status).toBe(200);
    expect(res.body.likes.map((u: { _id: string }) => u._id)).toEqual([fan.id, me.id]);
    expect(res.body.likes[1]).toMatchObject({ _id: me.id, email: me.email, bookmarks: [saved._id], blocked_users: [], isFollowing: false });
    expect(res.body.likes[0]).not.toHaveProperty('bookmarks');
  });
});

describe('blocks reach posts', () => {
  it('to a user the author blocked, the posts do not exist; the blocker gets 403 on like and bookmark', async () => {
    const [author, blocked] = await users(2);
    const p = await makePost(author);
    const mine = await makePost(blocked);
    expect((await block(author, blocked)).status).toBe(200);
    const params = { post_id: p._id };
    for (const [h, route] of [[getPostH, 'GET /posts/{post_id}'], [like, 'POST /posts/like/{post_id}'], [bookmark, 'POST /posts/bookmark/{post_id}'], [likesH, 'GET /posts/{post_id}/likes']] as const) {
      const r = await call(h, route, { token: blocked.token, params });
      expect([route, r.status, r.body.code]).toEqual([route, 404, 'NOT_FOUND']);
    }
    expect((await call(userPosts, 'GET /posts/user/{identifier}', { token: blocked.token, params: { identifier: author.id } })).status).toBe(404);
    // The blocker still sees the blocked user's posts, but may not like or bookmark them.
    expect((await call(getPostH, 'GET /posts/{post_id}', { token: author.token, params: { post_id: mine._id } })).status).toBe(200);
    for (const [h, route] of [[like, 'POST /posts/like/{post_id}'], [bookmark, 'POST /posts/bookmark/{post_id}']] as const) {
      const r = await call(h, route, { token: author.token, params: { post_id: mine._id } });
      expect([route, r.status, r.body.code]).toEqual([route, 403, 'FORBIDDEN']);
    }
    expect((await getItem(keys.post(mine._id)))!.likesCount).toBe(0);
    expect(await getItem(keys.bookmark(author.id, mine._id))).toBeUndefined();
    expect(await getItem(keys.postLike(p._id, blocked.id))).toBeUndefined();
  });
});
