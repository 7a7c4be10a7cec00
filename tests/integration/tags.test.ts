// Tag pages, postsCount and tag search (contract section 19), with the real change stream
// (postsCount and the search directory are kept by the stream consumer).
import '../support/own-stream-table';
import { mute as muteRoute, setPrivate as setPrivateRoute } from '../support/private';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { call } from '../support/invoke';
import { users } from '../support/posts';
import { block, follow, unblock } from '../support/graph';
import { changeRecord, eventually, startTestStream, type TestStream } from '../support/stream';
import type { TestUser } from '../support/factories';
import * as keys from '../../lib/keys';
import { transact } from '../../lib/db/transact';
import { goneChanged, goneItem } from '../../lib/users/gone';
import { db, TABLE } from '../../lib/db/client';
import { tagEntryItem } from '../../lib/tags/entries';
import { handler as consumer } from '../../functions/events/stream';
import { handler as create } from '../../functions/posts/create';
import { handler as edit } from '../../functions/posts/edit';
import { handler as del } from '../../functions/posts/delete';
import { handler as tagH } from '../../functions/tags/get';
import { handler as postsH } from '../../functions/tags/posts';
import { handler as searchH } from '../../functions/tags/search';
import { handler as trendsH } from '../../functions/tags/trends';
import { handler as notificationsH } from '../../functions/notifications/list';
import { getItem } from '../support/db';

let stream: TestStream;
beforeAll(() => { stream = startTestStream(); });
afterAll(() => stream.poller.stop());
afterEach(() => expect(stream.deadLetters).toEqual([]));

let seq = 0;
const uniqTag = () => `t${Date.now().toString(36)}${(seq++).toString(36)}`;
const post = async (u: TestUser, caption: string): Promise<string> => {
  const res = await call(create, 'POST /posts/create', { token: u.token, body: { image: `https://cdn.example.test/${++seq}.jpg`, caption } });
  expect(res.status).toBe(201);
  return res.body.post._id;
};
const page = async (u: TestUser, tag: string, query: Record<string, string> = {}) => {
  const res = await call(postsH, 'GET /tags/{tag}/posts', { token: u.token, params: { tag }, query });
  expect(res.status).toBe(200);
  return res.body as { posts: { _id: string; hashtags: string[]; isLiked: boolean }[]; pagination: { hasMore: boolean; nextCursor: string | null } };
};
const ids = async (u: TestUser, tag: string) => (await page(u, tag, { limit: '50' })).posts.map((p) => p._id);
const count = async (u: TestUser, tag: string) => {
  const res = await call(tagH, 'GET /tags/{tag}', { token: u.token, params: { tag } });
  expect(res.status).toBe(200);
  return res.body.tag as { name: string; postsCount: number };
};
const countIs = (u: TestUser, tag: string, n: number) => eventually(() => count(u, tag), (t) => t.postsCount === n);
const search = (u: TestUser, query: string, limit?: number) =>
  call(searchH, 'GET /tags', { token: u.token, query: { query, ...(limit ? { limit: String(limit) } : {}) } });
// Private accounts and mutes through their routes (contract section 18).
const setPrivate = async (u: TestUser, isPrivate: boolean) => expect((await setPrivateRoute(u, isPrivate)).status).toBe(200);
// Suspension as the moderation transaction writes it: the GONE item and the partition's version.
const suspend = (u: TestUser) => transact([goneItem(u.id, 'suspended', new Date().toISOString()), goneChanged()]);
const mute = async (by: TestUser, whom: TestUser) => expect((await muteRoute(by, whom)).status).toBe(200);

describe('GET /tags/{tag}/posts', () => {
  it('pages through the tag newest first across its shards, with the fields of explore', async () => {
    const [a, b] = await users(2);
    const tag = uniqTag();
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.push(await post(i % 2 ? a : b, `n${i} #${tag.toUpperCase()}`));
    const newest = [...made].reverse();
    const seen: string[] = [];
    let cursor: string | undefined;
    for (const size of [3, 3, 1]) {
      const res = await page(a, tag, { limit: '3', ...(cursor ? { cursor } : {}) });
      expect(res.posts).toHaveLength(size);
      seen.push(...res.posts.map((p) => p._id));
      expect(res.pagination.hasMore).toBe(size === 3);
      cursor = res.pagination.nextCursor ?? undefined;
    }
    expect(seen).toEqual(newest);
    expect(cursor).toBeUndefined();
    const first = (await page(b, tag)).posts[0]!;
    expect(first).toMatchObject({ _id: newest[0], hashtags: [tag], isLiked: false, likesCount: 0, commentsCount: 0, altText: [''] });
  });

  it('normalizes the path like a caption and refuses a path that is no tag', async () => {
    const [a] = await users(1);
    const tag = `Café${uniqTag()}`;
    const id = await post(a, `#${tag.toLowerCase()}`);
    expect(await ids(a, tag.toUpperCase())).toEqual([id]);
    expect(await ids(a, tag.replace('é', 'e\u0301'))).toEqual([id]);
    for (const bad of ['a#b', '#a', '2024', 'a'.repeat(101), 'a b']) {
      const res = await call(postsH, 'GET /tags/{tag}/posts', { token: a.token, params: { tag: bad } });
      expect([bad, res.status, res.body.code]).toEqual([bad, 400, 'VALIDATION_ERROR']);
    }
    expect((await page(a, 'nothingtaggedthis')).posts).toEqual([]);
  });

  it('an edit that drops the tag or a deletion takes the post off at once; an edit that adds it puts it on', async () => {
    const [a] = await users(1);
    const tag = uniqTag();
    const p1 = await post(a, `#${tag}`);
    const p2 = await post(a, `#${tag}`);
    const p3 = await post(a, 'untagged');
    expect(await ids(a, tag)).toEqual([p2, p1]);
    expect((await call(edit, 'POST /posts/edit/{post_id}', { token: a.token, params: { post_id: p1 }, body: { caption: 'gone' } })).status).toBe(200);
    expect(await ids(a, tag)).toEqual([p2]);
    expect((await call(del, 'DELETE /posts/{post_id}', { token: a.token, params: { post_id: p2 } })).status).toBe(200);
    expect(await ids(a, tag)).toEqual([]);
    expect((await call(edit, 'POST /posts/edit/{post_id}', { token: a.token, params: { post_id: p3 }, body: { caption: `now #${tag}` } })).status).toBe(200);
    expect(await ids(a, tag)).toEqual([p3]);
  });

  it('shows the caller its own posts and hides blocks either way, suspended, private unfollowed and muted authors', async () => {
    const [viewer, blocked, blocker, gone, priv, privFollowed, muted, plain] = await users(8);
    const tag = uniqTag();
    const own = await post(viewer, `#${tag}`);
    const byId: Record<string, string> = {};
    for (const [name, u] of Object.entries({ blocked, blocker, gone, priv, privFollowed, muted, plain })) byId[name] = await post(u, `#${tag}`);
    await block(viewer, blocked);
    await block(blocker, viewer);
    await suspend(gone);
    // Followed before it goes private: a follow of a private account is a request.
    expect((await follow(viewer, privFollowed)).status).toBe(200);
    await setPrivate(priv, true);
    await setPrivate(privFollowed, true);
    await mute(viewer, muted);
    const visible = await ids(viewer, tag);
    expect(new Set(visible)).toEqual(new Set([own, byId.privFollowed, byId.plain]));
    // Another caller sees what the viewer's relations hid (but not the suspended or the private).
    expect(new Set(await ids(plain, tag))).toEqual(new Set([own, byId.blocked, byId.blocker, byId.muted, byId.plain]));
    // The end of a block puts it back on the very next read.
    await unblock(viewer, blocked);
    expect(await ids(viewer, tag)).toContain(byId.blocked);
  });
});

describe('postsCount and GET /tags', () => {
  it('counts posts of public accounts once each, through edits, deletions and records delivered again', async () => {
    const [a, priv] = await users(2);
    const tag = uniqTag();
    expect(await count(a, tag)).toEqual({ name: tag, postsCount: 0 });
    const p1 = await post(a, `#${tag}`);
    await post(a, `#${tag} #${tag}x`);
    await setPrivate(priv, true);
    await post(priv, `#${tag}`);
    expect((await countIs(a, tag, 2)).postsCount).toBe(2);
    // The stream delivers a record again: the count does not move.
    const entry = { ...tagEntryItem(tag, p1, a.id, true) };
    const again = await consumer({ Records: [changeRecord('INSERT', entry)] } as never);
    expect(again).toEqual({ batchItemFailures: [] });
    expect((await count(a, tag)).postsCount).toBe(2);
    await call(edit, 'POST /posts/edit/{post_id}', { token: a.token, params: { post_id: p1 }, body: { caption: 'none' } });
    await countIs(a, tag, 1);
    await consumer({ Records: [changeRecord('REMOVE', entry)] } as never);
    expect((await count(a, tag)).postsCount).toBe(1);
    await countIs(a, `${tag}x`, 1);
  });

  it('finds tags by normalized prefix, highest postsCount first, ties by name, none of count 0', async () => {
    const [a] = await users(1);
    const base = `Ü${uniqTag()}`;
    const low = base.toLowerCase();
    await post(a, `#${base}b #${base}a`);
    await post(a, `#${base}c`);
    await post(a, `#${base}c`);
    const gone = await post(a, `#${base}z`);
    await countIs(a, `${low}z`, 1);
    await call(del, 'DELETE /posts/{post_id}', { token: a.token, params: { post_id: gone } });
    await countIs(a, `${low}z`, 0);
    const expected = [{ name: `${low}c`, postsCount: 2 }, { name: `${low}a`, postsCount: 1 }, { name: `${low}b`, postsCount: 1 }];
    const res = await eventually(() => search(a, `#${base.toUpperCase()}`), (r) => r.body.tags?.length === 3);
    expect(res.body).toEqual({ success: true, tags: expected });
    expect((await search(a, low, 1)).body.tags).toEqual(expected.slice(0, 1));
    expect((await search(a, `${low}a`)).body.tags).toEqual([expected[1]]);
    expect((await search(a, 'a b')).body.tags).toEqual([]);
    const empty = await search(a, '#');
    expect([empty.status, empty.body.code]).toEqual([400, 'VALIDATION_ERROR']);
  });
});

describe('GET /trends/tags', () => {
  const trends = async (u: TestUser) => {
    const res = await call(trendsH, 'GET /trends/tags', { token: u.token });
    expect(res.status).toBe(200);
    return res.body.tags as { name: string; postsCount: number; authors: number }[];
  };
  const stale = async () => {
    const held = await getItem(keys.trends());
    if (held) await db.send(new PutCommand({ TableName: TABLE, Item: { ...held, computedAt: 0 } }));
  };

  it('shows a tag once 3 distinct public accounts used it, counting an account once, and keeps a ranking for the interval', async () => {
    const [a, b, c, d, priv] = await users(5);
    const tag = uniqTag();
    await setPrivate(priv, true);
    await post(a, `#${tag}`);
    await post(a, `again #${tag}`);
    await post(b, `#${tag}`);
    await post(priv, `#${tag}`);
    await stream.poller.idle();
    await stale();
    expect((await trends(a)).map((t) => t.name)).not.toContain(tag);
    await post(c, `#${tag}`);
    await stream.poller.idle();
    // Within the interval the ranking stays as computed.
    expect((await trends(a)).map((t) => t.name)).not.toContain(tag);
    const shown = await eventually(async () => { await stale(); return (await trends(a)).find((t) => t.name === tag); }, (t) => t?.postsCount === 4);
    expect(shown).toEqual({ name: tag, postsCount: 4, authors: 3 });
    // A record delivered again changes nothing.
    await post(d, 'no tag');
    await stream.poller.idle();
    await stale();
    expect((await trends(a)).find((t) => t.name === tag)?.authors).toBe(3);
  });
});

describe('MENTION notifications of captions', () => {
  const mentions = async (u: TestUser) => {
    const res = await call(notificationsH, 'GET /notifications', { token: u.token });
    expect(res.status).toBe(200);
    return (res.body.notifications as { type: string; post: string | null; comment: string | null; actor: { _id: string } }[]).filter((n) => n.type === 'MENTION');
  };

  it('notifies the mentioned, not the author, a muter or one who cannot see the post; edits and deletion follow', async () => {
    const [author, m1, m2, muter, priv, privReader] = await users(6);
    await mute(muter, author);
    const p = await post(author, `hi @${m1.username} @${author.username} @${muter.username}`);
    const got = await eventually(() => mentions(m1), (n) => n.length === 1);
    expect(got[0]).toMatchObject({ type: 'MENTION', post: p, comment: null, actor: { _id: author.id } });
    await stream.poller.idle();
    expect(await mentions(author)).toEqual([]);
    expect(await mentions(muter)).toEqual([]);
    // An edit notifies only what it adds and removes what it drops.
    await call(edit, 'POST /posts/edit/{post_id}', { token: author.token, params: { post_id: p }, body: { caption: `hi @${m2.username}` } });
    await eventually(() => mentions(m2), (n) => n.length === 1);
    await eventually(() => mentions(m1), (n) => n.length === 0);
    await call(del, 'DELETE /posts/{post_id}', { token: author.token, params: { post_id: p } });
    await eventually(() => mentions(m2), (n) => n.length === 0);
    // A private author's mention reaches a follower only.
    expect((await follow(privReader, priv)).status).toBe(200);
    await setPrivate(priv, true);
    await post(priv, `@${m1.username} @${privReader.username}`);
    await eventually(() => mentions(privReader), (n) => n.length === 1);
    await stream.poller.idle();
    expect(await mentions(m1)).toEqual([]);
  });
});
