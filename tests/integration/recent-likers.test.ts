// The newest likers of each post, kept beside it by the real change stream
// (lib/posts/recent-likers.ts), and the pages of posts that present their `likes` arrays from
// it without a likes-index Query per post (docs/ARCHITECTURE.md, "Recent likers beside the post").
// The request counter is the benchmark's (scripts/bench/measure.mjs), installed before the modules load.
/* eslint-disable @typescript-eslint/no-require-imports */
(require('../../scripts/bench/measure.mjs') as { installDbMetrics: () => void }).installDbMetrics();
require('../support/own-stream-table');
const { makePost, users } = require('../support/posts') as typeof import('../support/posts');
const { eventually, startTestStream } = require('../support/stream') as typeof import('../support/stream');
const { getItem } = require('../support/db') as typeof import('../support/db');
const { feed } = require('../support/feed') as typeof import('../support/feed');
const keys = require('../../lib/keys') as typeof import('../../lib/keys');
const { call, lambdaContext } = require('../support/invoke') as typeof import('../support/invoke');
const { db, TABLE } = require('../../lib/db/client') as typeof import('../../lib/db/client');
const { PutCommand } = require('@aws-sdk/lib-dynamodb') as typeof import('@aws-sdk/lib-dynamodb');
const { refreshLikers, showsEdge } = require('../../lib/posts/recent-likers') as typeof import('../../lib/posts/recent-likers');
const { likerOf } = require('../../lib/posts/likers-item') as typeof import('../../lib/posts/likers-item');
const { handler: likeH } = require('../../functions/posts/like') as typeof import('../../functions/posts/like');
const { handler: unlikeH } = require('../../functions/posts/unlike') as typeof import('../../functions/posts/unlike');
const { handler: userPostsH } = require('../../functions/posts/user') as typeof import('../../functions/posts/user');
const { handler: deleteH } = require('../../functions/posts/delete') as typeof import('../../functions/posts/delete');
const { comment, comments, created, like: likeComment, remove: removeComment } = require('../support/comment-api') as typeof import('../support/comment-api');
const { handler: worker } = require('../../functions/cleanup/worker') as typeof import('../../functions/cleanup/worker');
const { likersQueries, recorded } = require('../support/db-metrics') as typeof import('../support/db-metrics');
/* eslint-enable @typescript-eslint/no-require-imports */
import type { TestStream } from '../support/stream';
import type { TestUser } from '../support/factories';


const like = (u: TestUser, postId: string) => call(likeH, 'POST /posts/like/{post_id}', { token: u.token, params: { post_id: postId } });
const unlike = (u: TestUser, postId: string) => call(unlikeH, 'POST /posts/unlike/{post_id}', { token: u.token, params: { post_id: postId } });
const authorPage = (viewer: TestUser, author: TestUser) => call(userPostsH, 'GET /posts/user/{identifier}', { token: viewer.token, params: { identifier: author.id } });

const stored = (postId: string) => getItem(keys.postLikers(postId));
/** The cleanup worker runs a deleted post's or comment's job to its end. */
const cleanUp = async (kind: 'post' | 'comment', id: string) =>
  expect((await worker({ kind, id }, { ...lambdaContext(), getRemainingTimeInMillis: () => 300_000 })).done).toBe(true);
/** The liker ids the item beside the post lists, newest first. */
const ids = async (postId: string) => ((await stored(postId))?.sks as string[] | undefined)?.map(likerOf);
/** The likes index sort key of a user's like of a post, as it stands. */
const skOf = async (postId: string, userId: string) => String((await getItem(keys.postLike(postId, userId)))!.GSI1SK);
/** The item beside the post reflects the post's last like or unlike. */
const current = async (postId: string) => {
  const [post, item] = await Promise.all([getItem(keys.post(postId)), stored(postId)]);
  return item !== undefined && item.v === (post?.likesV ?? 0);
};

let stream: TestStream;
beforeAll(() => { stream = startTestStream(); });
afterAll(() => stream.poller.stop());
afterEach(() => expect(stream.deadLetters).toEqual([]));

describe('recent likers beside the post', () => {
  it('like by like, the stream keeps the newest likers at the post likesV, and pages present them with no likes-index Query', async () => {
    const [author, a, b, viewer] = await users(4);
    const p = await makePost(author);
    expect((await like(a, p._id)).status).toBe(200);
    expect((await like(b, p._id)).status).toBe(200);
    expect((await getItem(keys.post(p._id)))!.likesV).toBe(2);
    expect(await eventually(() => current(p._id), Boolean)).toBeTruthy();
    expect(await ids(p._id)).toEqual([b.id, a.id]);
    expect(await stored(p._id)).toMatchObject({ type: 'LIKERS', targetId: p._id, v: 2, likesCount: 2 });

    let page: Awaited<ReturnType<typeof authorPage>> | undefined;
    const recs = await recorded(async () => { page = await authorPage(viewer, author); });
    expect(page!.status).toBe(200);
    expect(page!.body.posts[0]).toMatchObject({ _id: p._id, likes: [b.id, a.id], likesCount: 2 });
    expect(likersQueries(recs, p._id)).toEqual([]);

    // The home feed (its reads started ahead) presents them the same way.
    let home: Awaited<ReturnType<typeof feed>> | undefined;
    const feedRecs = await recorded(async () => { home = await feed(author.token); });
    expect(home!.body.posts.find((x: { _id: string }) => x._id === p._id)).toMatchObject({ likes: [b.id, a.id] });
    expect(likersQueries(feedRecs, p._id)).toEqual([]);

    expect((await unlike(b, p._id)).status).toBe(200);
    expect(await eventually(() => current(p._id), Boolean)).toBeTruthy();
    expect(await ids(p._id)).toEqual([a.id]);
    expect((await stored(p._id))!.v).toBe(3);
  });

  it('keeps at most 10 ids, and refills from the index when a listed like goes', async () => {
    const [author, ...fans] = await users(12);
    const p = await makePost(author);
    for (const f of fans) expect((await like(f, p._id)).status).toBe(200);
    expect(await eventually(() => current(p._id), Boolean)).toBeTruthy();
    expect(await ids(p._id)).toEqual(fans.slice(-10).reverse().map((f) => f.id));
    expect((await unlike(fans[10]!, p._id)).status).toBe(200);
    expect(await eventually(() => current(p._id), Boolean)).toBeTruthy();
    expect(await ids(p._id)).toEqual(fans.slice(0, 10).reverse().map((f) => f.id));
    // A replay of either change finds the item current and writes nothing.
    expect(await refreshLikers(p._id, [fans[10]!.id])).toBe(false);
    expect(await refreshLikers(p._id, [fans[0]!.id, fans[5]!.id])).toBe(false);
  });

  it('a page never presents an item behind the post: it reads the index instead', async () => {
    const [author, a, viewer] = await users(3);
    const p = await makePost(author);
    expect((await like(a, p._id)).status).toBe(200);
    expect(await eventually(() => current(p._id), Boolean)).toBeTruthy();
    // An item one version behind, with a like the post never had: the page must not show it.
    const fake = { ...keys.postLikers(p._id), type: 'LIKERS', targetId: p._id, sks: [`2030-01-01T00:00:00.000Z#${viewer.id}`], rev: 'test' };
    let page: Awaited<ReturnType<typeof authorPage>> | undefined;
    let recs: Awaited<ReturnType<typeof recorded>> = [];
    // Behind by its version; or at the version, with another count (a like that did not move
    // likesV: one served by the code before it, during a deploy).
    for (const behind of [{ v: 0, likesCount: 1 }, { v: 1, likesCount: 2 }]) {
      await db.send(new PutCommand({ TableName: TABLE, Item: { ...fake, ...behind } }));
      recs = await recorded(async () => { page = await authorPage(viewer, author); });
      expect(page!.body.posts[0].likes).toEqual([a.id]);
      expect(likersQueries(recs, p._id)).toHaveLength(1);
    }
    // At the post's version the item is what the page shows (the proof that it is read at all).
    await db.send(new PutCommand({ TableName: TABLE, Item: { ...fake, v: 1, likesCount: 1 } }));
    recs = await recorded(async () => { page = await authorPage(viewer, author); });
    expect(page!.body.posts[0].likes).toEqual([viewer.id]);
    expect(likersQueries(recs, p._id)).toEqual([]);
  });

  it('a run for a like the item does not show as it stands rewrites it, at the same version', async () => {
    const [author, a, b] = await users(3);
    const p = await makePost(author);
    for (const u of [a, b]) expect((await like(u, p._id)).status).toBe(200);
    expect(await eventually(async () => (await ids(p._id))?.length === 2 && current(p._id), Boolean)).toBeTruthy();
    // Current by its version, but without b's like (as a run that read a lagging index would leave it).
    await db.send(new PutCommand({ TableName: TABLE, Item: { ...keys.postLikers(p._id), type: 'LIKERS', targetId: p._id, sks: [await skOf(p._id, a.id)], v: 2, likesCount: 2, rev: 'stale' } }));
    expect(await refreshLikers(p._id)).toBe(false); // the version alone says current
    expect(await refreshLikers(p._id, [a.id])).toBe(false); // a's like is shown as it stands
    await refreshLikers(p._id, [b.id]);
    expect(await ids(p._id)).toEqual([b.id, a.id]);
    expect(await stored(p._id)).toMatchObject({ v: 2 });
    // Written again by this run (or by b's own record's, still in the stream): not the stale one.
    expect((await stored(p._id))!.rev).not.toBe('stale');
  });

  it('the deletion of the post takes its item with it, and a late run leaves none behind', async () => {
    const [author, a] = await users(2);
    const p = await makePost(author);
    expect((await like(a, p._id)).status).toBe(200);
    expect(await eventually(() => current(p._id), Boolean)).toBeTruthy();
    expect((await call(deleteH, 'DELETE /posts/{post_id}', { token: author.token, params: { post_id: p._id } })).status).toBe(200);
    await cleanUp('post', p._id);
    expect(await stored(p._id)).toBeUndefined();
    // An item written after the cleanup (a run that read the post just before its deletion) is removed by the next run.
    await db.send(new PutCommand({ TableName: TABLE, Item: { ...keys.postLikers(p._id), type: 'LIKERS', targetId: p._id, sks: [`2026-01-01T00:00:00.000Z#${a.id}`], v: 1, rev: 'late' } }));
    expect(await refreshLikers(p._id, [a.id])).toBe(false);
    expect(await stored(p._id)).toBeUndefined();
  });
});

describe('recent likers beside a comment', () => {
  const commentItem = (id: string) => getItem(keys.commentLikers(id));
  const commentCurrent = async (id: string) => {
    const [c, item] = await Promise.all([getItem(keys.comment(id)), commentItem(id)]);
    return item !== undefined && item.v === (c?.likesV ?? 0) && item.likesCount === c?.likesCount;
  };
  it('the stream keeps them, a page of comments presents them with no likes-index Query, and the comment takes its item along', async () => {
    const [author, a, b, viewer] = await users(4);
    const p = await makePost(author);
    const c = created(await comment(author, p._id, 'liked twice'));
    for (const u of [a, b]) expect((await likeComment(u, c._id)).status).toBe(200);
    expect((await getItem(keys.comment(c._id)))!.likesV).toBe(2);
    expect(await eventually(() => commentCurrent(c._id), Boolean)).toBeTruthy();
    expect(((await commentItem(c._id))!.sks as string[]).map(likerOf)).toEqual([b.id, a.id]);
    expect(await commentItem(c._id)).toMatchObject({ type: 'LIKERS', targetId: c._id, v: 2, likesCount: 2 });

    let page: Awaited<ReturnType<typeof comments>> | undefined;
    let recs = await recorded(async () => { page = await comments(viewer, p._id); });
    expect(page!.body.data.comments[0]).toMatchObject({ _id: c._id, likes: [b.id, a.id] });
    expect(likersQueries(recs, c._id)).toEqual([]);
    // Behind the comment (by version): the page reads the index, and shows the truth.
    const stale = { ...(await commentItem(c._id))!, sks: [`2030-01-01T00:00:00.000Z#${viewer.id}`], v: 1 };
    await db.send(new PutCommand({ TableName: TABLE, Item: stale }));
    recs = await recorded(async () => { page = await comments(viewer, p._id); });
    expect(page!.body.data.comments[0].likes).toEqual([b.id, a.id]);
    expect(likersQueries(recs, c._id)).toHaveLength(1);

    expect((await removeComment(author, c._id)).status).toBe(200);
    await cleanUp('comment', c._id);
    expect(await commentItem(c._id)).toBeUndefined();
  });

  it("a post's cleanup takes its comments' items along", async () => {
    const [author, a] = await users(2);
    const p = await makePost(author);
    const c = created(await comment(author, p._id, 'liked once'));
    expect((await likeComment(a, c._id)).status).toBe(200);
    expect(await eventually(() => commentCurrent(c._id), Boolean)).toBeTruthy();
    expect((await call(deleteH, 'DELETE /posts/{post_id}', { token: author.token, params: { post_id: p._id } })).status).toBe(200);
    await cleanUp('post', p._id);
    expect(await commentItem(c._id)).toBeUndefined();
  });
});

describe('showsEdge', () => {
  const sk = (n: number, id: string) => `2026-01-01T00:00:${String(n).padStart(2, '0')}.000Z#${id}`;
  // Ten likes, U9 the newest (second 19) down to U0 (second 10).
  const full = Array.from({ length: 10 }, (_, i) => sk(19 - i, `U${9 - i}`));
  it('a view with room holds every like; a full one the newest; a gone like is never listed', () => {
    expect(showsEdge([sk(1, 'A')], 'B', sk(2, 'B'))).toBe(false);
    expect(showsEdge([sk(2, 'B'), sk(1, 'A')], 'B', sk(2, 'B'))).toBe(true);
    expect(showsEdge([sk(2, 'B')], 'B', undefined)).toBe(false);
    expect(showsEdge([], 'B', undefined)).toBe(true);
    expect(showsEdge(full, 'Z', sk(30, 'Z'))).toBe(false);
    expect(showsEdge(full, 'Z', sk(5, 'Z'))).toBe(true);
    expect(showsEdge(full, 'U0', sk(10, 'U0'))).toBe(true);
    // Liked again since: listed with its old sort key is not the like as it stands.
    expect(showsEdge([sk(2, 'B'), sk(1, 'A')], 'A', sk(3, 'A'))).toBe(false);
  });
});
