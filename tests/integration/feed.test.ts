// GET /posts/feed (contract section 11) on DynamoDB Local with the real change stream: the
// fan-out, backfill and removals run in the real consumer, fed by the table's own stream.
import '../support/own-table';
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
});
