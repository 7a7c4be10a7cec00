// GET /posts/feed (contract section 11) on DynamoDB Local with the real change stream: the
// fan-out, backfill and removals run in the real consumer, fed by the table's own stream.
import '../support/own-stream-table';
import { call } from '../support/invoke';
import { makePost, users } from '../support/posts';
import { block, follow, unfollow } from '../support/graph';
import { eventually, startTestStream, type TestStream } from '../support/stream';
import { feed, feedIds, storedEntries, walkFeed } from '../support/feed';
import { handler as deleteH } from '../../functions/posts/delete';
import { handler as likeH } from '../../functions/posts/like';
import { handler as bookmarkH } from '../../functions/posts/bookmark';

/** The contract's promise for a followed account's post and a follow's backfill. */
const FIVE_SECONDS = 5_000;

let stream: TestStream;
beforeAll(() => { stream = startTestStream(); });
afterAll(() => stream.poller.stop());
afterEach(() => expect(stream.deadLetters).toEqual([]));

describe('GET /posts/feed', () => {
  it("shows the caller's own new post as soon as its creation has answered", async () => {
    const [me] = await users(1);
    const post = await makePost(me);
    expect(await feedIds(me.token)).toEqual([post._id]);
  });

  it("shows a followed account's new post within 5 seconds, with the fields of explore", async () => {
    const [me, author] = await users(2);
    expect((await follow(me, author)).status).toBe(200);
    const post = await makePost(author);
    const ids = await eventually(() => feedIds(me.token), (v) => v.includes(post._id), FIVE_SECONDS);
    expect(ids).toEqual([post._id]);
    await call(likeH, 'POST /posts/like/{post_id}', { token: me.token, params: { post_id: post._id } });
    await call(bookmarkH, 'POST /posts/bookmark/{post_id}', { token: me.token, params: { post_id: post._id } });
    const res = await feed(me.token);
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ hasMore: false, nextCursor: null });
    expect(res.body.posts[0]).toMatchObject({ _id: post._id, author: author.id, isLiked: true, isBookmarked: true, likesCount: 1, commentsCount: 0, likes: [me.id] });
  });

  it('after a follow, has the 20 newest posts of the followed account within 5 seconds', async () => {
    const [me, author] = await users(2);
    const posts = [];
    for (let i = 0; i < 23; i++) posts.push(await makePost(author));
    const newest = posts.slice(-20).reverse().map((p) => p._id);
    expect((await follow(me, author)).status).toBe(200);
    const ids = await eventually(() => feedIds(me.token), (v) => v.length >= 20, FIVE_SECONDS);
    expect(ids).toEqual(newest);
  });

  it('leaves out an unfollowed account at the very next read, and its entries are removed later', async () => {
    const [me, author, other] = await users(3);
    await follow(me, author);
    await follow(me, other);
    const gone = await makePost(author);
    const kept = await makePost(other);
    // Both are in the feed first: what the unfollow leaves out was there.
    expect(await eventually(() => feedIds(me.token), (v) => v.length === 2, FIVE_SECONDS)).toEqual([kept._id, gone._id]);
    expect((await unfollow(me, author)).status).toBe(200);
    expect(await feedIds(me.token)).toEqual([kept._id]);
    const stored = await eventually(() => storedEntries(me.id), (v) => !v.some((e) => e.postId === gone._id));
    expect(stored.map((e) => e.postId)).toEqual([kept._id]);
  });

  it('leaves out both sides of a block at the very next read, whoever blocked', async () => {
    const [me, blockedByMe, blocksMe, friend] = await users(4);
    for (const u of [blockedByMe, blocksMe, friend]) await follow(me, u);
    const [a, b, c] = [await makePost(blockedByMe), await makePost(blocksMe), await makePost(friend)];
    expect(await eventually(() => feedIds(me.token), (v) => v.length === 3, FIVE_SECONDS)).toEqual([c._id, b._id, a._id]);
    expect((await block(me, blockedByMe)).status).toBe(200);
    expect((await block(blocksMe, me)).status).toBe(200);
    expect(await feedIds(me.token)).toEqual([c._id]);
    // The block removed the follows: the stored entries go too.
    const stored = (await eventually(() => storedEntries(me.id), (v) => v.length === 1)).map((e) => e.postId);
    expect(stored).toEqual([c._id]);
    expect(stored).not.toContain(a._id);
    expect(stored).not.toContain(b._id);
  });

  it('leaves out a deleted post at the very next read, for its author and every follower, and removes its entries', async () => {
    const [author, f1, f2] = await users(3);
    await follow(f1, author);
    await follow(f2, author);
    const post = await makePost(author);
    const keep = await makePost(author);
    for (const f of [f2, f1]) expect(await eventually(() => feedIds(f.token), (v) => v.length === 2, FIVE_SECONDS)).toEqual([keep._id, post._id]);
    expect((await call(deleteH, 'DELETE /posts/{post_id}', { token: author.token, params: { post_id: post._id } })).status).toBe(200);
    for (const u of [author, f1, f2]) expect(await feedIds(u.token)).toEqual([keep._id]);
    for (const u of [author, f1, f2]) {
      const stored = await eventually(() => storedEntries(u.id), (v) => v.length === 1);
      expect(stored.map((e) => e.postId)).toEqual([keep._id]);
    }
  });

  it('pages newest first with an opaque cursor; a walk while new posts arrive yields each post once and skips none', async () => {
    const [me, a, b] = await users(3);
    await follow(me, a);
    await follow(me, b);
    const before: string[] = [];
    for (let i = 0; i < 6; i++) {
      before.push((await makePost(a))._id, (await makePost(b))._id);
      before.push((await makePost(me))._id);
    }
    await eventually(() => feedIds(me.token), (v) => v.length === before.length, FIVE_SECONDS);
    const arriving: string[] = [];
    const walked = await walkFeed(me.token, 4, async () => {
      arriving.push((await makePost(a))._id, (await makePost(me))._id);
    });
    expect(new Set(walked).size).toBe(walked.length);
    expect(walked.filter((id) => before.includes(id))).toEqual([...before].reverse());
    // Posts that arrived during the walk are newer than its first page: never in its later pages.
    expect(walked.filter((id) => arriving.includes(id))).toEqual([]);
  });

  it('refuses a malformed cursor or limit with 400 VALIDATION_ERROR', async () => {
    const [me] = await users(1);
    const bad: Record<string, string>[] = [{ cursor: 'not a cursor' }, { cursor: Buffer.from('hello').toString('base64url') }, { limit: '0' }, { limit: '51' }, { limit: 'x' }];
    for (const query of bad) {
      const res = await feed(me.token, query);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
  });

  it('an empty feed is an empty page', async () => {
    const [me] = await users(1);
    const res = await feed(me.token);
    expect(res.body).toEqual({ success: true, posts: [], pagination: { hasMore: false, nextCursor: null } });
  });
});
