// The recent likers reaction (lib/posts/recent-likers.ts) where the file's own control matters,
// so no stream runs here (the shared table):
// - a batch of one post's like records through the consumer's router (lib/events/changes.ts
//   react), built from the real like edges: the records go in waves, so one run brings the
//   item beside the post up to date for all of them;
// - a lagging likes index (AWS's GSI propagation), made by taking an edge's GSI1PK away:
//   DynamoDB Local's indexes never lag. A view that leaves out a like it should show is
//   never written. The same for the recent follow ids on the user item (lib/graph/recent.ts):
//   an unfollowed edge the index still shows, made by an index entry of its own.
// The request counter is the benchmark's (scripts/bench/measure.mjs), installed before the modules load.
/* eslint-disable @typescript-eslint/no-require-imports */
(require('../../scripts/bench/measure.mjs') as { installDbMetrics: () => void }).installDbMetrics();
const { makePost, users } = require('../support/posts') as typeof import('../support/posts');
const { call } = require('../support/invoke') as typeof import('../support/invoke');
const { getItem } = require('../support/db') as typeof import('../support/db');
const keys = require('../../lib/keys') as typeof import('../../lib/keys');
const { react } = require('../../lib/events/changes') as typeof import('../../lib/events/changes');
const { IndexBehind, refreshRecent } = require('../../lib/graph/recent') as typeof import('../../lib/graph/recent');
const { follow, unfollow } = require('../support/graph') as typeof import('../support/graph');
const { likersReactions, refreshLikers } = require('../../lib/posts/recent-likers') as typeof import('../../lib/posts/recent-likers');
const { likerOf } = require('../../lib/posts/likers-item') as typeof import('../../lib/posts/likers-item');
const { marshall } = require('@aws-sdk/util-dynamodb') as typeof import('@aws-sdk/util-dynamodb');
const { db, TABLE } = require('../../lib/db/client') as typeof import('../../lib/db/client');
const { DeleteCommand, PutCommand, UpdateCommand } = require('@aws-sdk/lib-dynamodb') as typeof import('@aws-sdk/lib-dynamodb');
const { handler: likeH } = require('../../functions/posts/like') as typeof import('../../functions/posts/like');
const { handler: unlikeH } = require('../../functions/posts/unlike') as typeof import('../../functions/posts/unlike');
const { countOf, recorded } = require('../support/db-metrics') as typeof import('../support/db-metrics');
/* eslint-enable @typescript-eslint/no-require-imports */
import type { DynamoDBRecord } from 'aws-lambda';


it('a batch of 20 likes of one post goes in waves: one index Query and one write, every record done', async () => {
  const [author, ...fans] = await users(21);
  const p = await makePost(author);
  for (const f of fans) expect((await call(likeH, 'POST /posts/like/{post_id}', { token: f.token, params: { post_id: p._id } })).status).toBe(200);
  const records = await Promise.all(fans.map(async (f, i): Promise<DynamoDBRecord> => {
    const edge = (await getItem(keys.postLike(p._id, f.id)))!;
    return {
      eventName: 'INSERT',
      dynamodb: { Keys: marshall(keys.postLike(p._id, f.id)) as never, NewImage: marshall(edge) as never, SequenceNumber: String(1000 + i) },
    };
  }));

  let out: Awaited<ReturnType<typeof react>> | undefined;
  const recs = await recorded(async () => { out = await react(records, likersReactions); });
  expect(out).toEqual({ batchItemFailures: [] });
  // Side by side, each of the ten parallel runs would have queried the index and raced to write.
  expect(countOf(recs, 'QueryCommand')).toBe(1);
  expect(countOf(recs, 'PutItemCommand')).toBe(1);
  // The first wave holds the ten records the router starts at once, the second the other ten.
  expect(countOf(recs, 'BatchGetItemCommand')).toBe(2);
  const item = (await getItem(keys.postLikers(p._id)))!;
  expect((item.sks as string[]).map(likerOf)).toEqual(fans.slice(-10).reverse().map((f) => f.id));
  expect(item.v).toBe(20);

  // Delivered again (a retry from the first record): nothing is written.
  const again = await recorded(async () => { out = await react(records, likersReactions); });
  expect(out).toEqual({ batchItemFailures: [] });
  expect(countOf(again, 'PutItemCommand')).toBe(0);
  expect(countOf(again, 'QueryCommand')).toBe(0);
});

const like = async (u: { token: string }, postId: string) => expect((await call(likeH, 'POST /posts/like/{post_id}', { token: u.token, params: { post_id: postId } })).status).toBe(200);
/** The index stops showing a like (its GSI1PK taken away), as a lagging index would; and shows it again. */
const hide = (postId: string, userId: string) => db.send(new UpdateCommand({ TableName: TABLE, Key: keys.postLike(postId, userId), UpdateExpression: 'REMOVE GSI1PK' }));
const show = (postId: string, userId: string) => db.send(new UpdateCommand({ TableName: TABLE, Key: keys.postLike(postId, userId), UpdateExpression: 'SET GSI1PK = :pk', ExpressionAttributeValues: { ':pk': keys.likesOf(postId) } }));
const listed = async (postId: string) => ((await getItem(keys.postLikers(postId)))!.sks as string[]).map(likerOf);

describe('a lagging likes index', () => {
  it('a run whose own like the index does not show yet fails (the stream retries it), and writes once it does', async () => {
    const [author, a, b, c] = await users(4);
    const p = await makePost(author);
    await like(a, p._id);
    await like(b, p._id);
    expect(await refreshLikers(p._id, [a.id, b.id])).toBe(true);
    await like(c, p._id);
    await hide(p._id, c.id);
    await expect(refreshLikers(p._id, [c.id])).rejects.toBeInstanceOf(IndexBehind);
    expect(await listed(p._id)).toEqual([b.id, a.id]);
    await show(p._id, c.id);
    expect(await refreshLikers(p._id, [c.id])).toBe(true);
    expect(await listed(p._id)).toEqual([c.id, b.id, a.id]);
    // At the post's version with another count (a like that did not move likesV): rewritten.
    const item = (await getItem(keys.postLikers(p._id)))!;
    await db.send(new PutCommand({ TableName: TABLE, Item: { ...item, sks: (item.sks as string[]).slice(1), likesCount: 2 } }));
    expect(await refreshLikers(p._id)).toBe(true);
    expect(await getItem(keys.postLikers(p._id))).toMatchObject({ v: 3, likesCount: 3 });
    expect(await listed(p._id)).toEqual([c.id, b.id, a.id]);
  });

  it('with 10 likes or more, a view that drops a listed like whose edge still stands is not written', async () => {
    const [author, z, ...fans] = await users(13);
    const p = await makePost(author);
    for (const f of fans) await like(f, p._id);
    expect(await refreshLikers(p._id)).toBe(true);
    const newest = fans.slice(-10).reverse().map((f) => f.id);
    expect(await listed(p._id)).toEqual(newest);
    // The third newest like leaves the index (it still stands), and z likes: z's run sees 10
    // likes, z among them, as many as counted, and would leave the third newest out.
    await hide(p._id, newest[2]!);
    await like(z, p._id);
    await expect(refreshLikers(p._id, [z.id])).rejects.toBeInstanceOf(IndexBehind);
    expect(await listed(p._id)).toEqual(newest);
    await show(p._id, newest[2]!);
    expect(await refreshLikers(p._id, [z.id])).toBe(true);
    expect(await listed(p._id)).toEqual([z.id, ...newest.slice(0, 9)]);
  });

  it('an unliked like that the index still shows is not written back', async () => {
    const [author, a, b] = await users(3);
    const p = await makePost(author);
    await like(a, p._id);
    await like(b, p._id);
    expect(await refreshLikers(p._id)).toBe(true);
    // b unlikes; the index still shows b's like (its copy not yet removed): a copy of the edge
    // under another key stands for it in the index.
    const edge = (await getItem(keys.postLike(p._id, b.id)))!;
    expect((await call(unlikeH, 'POST /posts/unlike/{post_id}', { token: b.token, params: { post_id: p._id } })).status).toBe(200);
    await db.send(new PutCommand({ TableName: TABLE, Item: { ...edge, PK: `LAG#${p._id}`, SK: `LIKE#${b.id}` } }));
    await expect(refreshLikers(p._id, [b.id])).rejects.toBeInstanceOf(IndexBehind);
    expect(await listed(p._id)).toEqual([b.id, a.id]);
    await db.send(new DeleteCommand({ TableName: TABLE, Key: { PK: `LAG#${p._id}`, SK: `LIKE#${b.id}` } }));
    expect(await refreshLikers(p._id, [b.id])).toBe(true);
    expect(await listed(p._id)).toEqual([a.id]);
  });
});

describe('a lagging follow index', () => {
  it('with as many followings as the item keeps, an unfollowed edge the index still shows is caught (the stream retries), not written', async () => {
    const [me, ...stars] = await users(22);
    for (const s of stars) expect((await follow(me, s)).status).toBe(200);
    expect(await refreshRecent(me.id)).toBe(true);
    const gone = stars[20]!;
    const edge = (await getItem(keys.follow(me.id, gone.id)))!;
    expect((await unfollow(me, gone)).status).toBe(200);
    // The index still shows the removed edge: 21 entries where the item counts 20, the newest
    // of them gone. Read as 20, the arrays would hold it and miss the oldest real follow.
    const ghost = { PK: `LAG#${me.id}`, SK: 'LAG' };
    await db.send(new PutCommand({ TableName: TABLE, Item: { ...ghost, GSI1PK: edge.GSI1PK, GSI1SK: edge.GSI1SK } }));
    try {
      expect((await getItem(keys.user(me.id)))!.followingCount).toBe(20);
      await expect(refreshRecent(me.id)).rejects.toBeInstanceOf(IndexBehind);
      expect((await getItem(keys.user(me.id)))!.recentFollowing).toEqual(stars.slice(1).reverse().map((s) => s.id));
    } finally {
      await db.send(new DeleteCommand({ TableName: TABLE, Key: ghost }));
    }
    expect(await refreshRecent(me.id)).toBe(true);
    expect((await getItem(keys.user(me.id)))!.recentFollowing).toEqual(stars.slice(0, 20).reverse().map((s) => s.id));
  });
});
