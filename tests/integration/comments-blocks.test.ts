import { makeUsers } from '../support/factories';
import { makePost, block } from '../support/comment-fixtures';
import {
  comment, reply, replies, comments, created, remove, like, unlike, postItem, commentItem, walk,
} from '../support/comment-api';
import { getItem } from '../support/db';
import * as keys from '../../lib/keys';

describe('comments and blocks', () => {
  it('a user blocked by the post author gets 404 commenting, replying, liking and listing; the blocker gets 403 acting', async () => {
    const [owner, blocked, other] = await makeUsers(3);
    const post = await makePost(owner!);
    const top = created(await comment(other!, post.id, 'by other'));
    const byBlocked = created(await comment(blocked!, post.id, 'before the block'));
    await block(owner!, blocked!);
    const countBefore = (await postItem(post.id))!.commentsCount;

    for (const res of [
      await comment(blocked!, post.id, 'x'),
      await reply(blocked!, top._id, { text: 'x' }),
      await like(blocked!, top._id),
      await comments(blocked!, post.id),
      await replies(blocked!, top._id),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    // The blocker acting on the blocked user's comment: 403.
    for (const res of [await like(owner!, byBlocked._id), await reply(owner!, byBlocked._id, { text: 'x' })]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    }
    expect((await postItem(post.id))!.commentsCount).toBe(countBefore);
    expect(await getItem(keys.commentLike(top._id, blocked!.id))).toBeUndefined();
    expect((await commentItem(byBlocked._id))!.likesCount).toBe(0);

    // The blocked user's comment is left out for the owner, and for nobody else.
    const forOwner = await comments(owner!, post.id);
    expect(forOwner.body.data.comments.map((c: { _id: string }) => c._id)).toEqual([top._id]);
    const forOther = await comments(other!, post.id);
    expect(forOther.body.data.comments.map((c: { _id: string }) => c._id)).toEqual([top._id, byBlocked._id]);

    // The owner can still remove the blocked user's comment on their post.
    expect((await remove(owner!, byBlocked._id)).status).toBe(200);
  });

  it("the blocker gets 403 commenting on the blocked user's post; the blocked user is 404 on the blocker's comment elsewhere", async () => {
    const [a, b, c] = await makeUsers(3);
    await block(a!, b!);
    const bPost = await makePost(b!);
    const res = await comment(a!, bPost.id, 'x');
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('FORBIDDEN');
    expect((await postItem(bPost.id))!.commentsCount).toBe(0);

    const cPost = await makePost(c!);
    const byA = created(await comment(a!, cPost.id, 'by the blocker'));
    expect((await reply(b!, byA._id, { text: 'x' })).status).toBe(404);
    expect((await like(b!, byA._id)).status).toBe(404);
    expect((await replies(b!, byA._id)).status).toBe(404);
    expect((await comment(b!, cPost.id, 'fine on a third post')).status).toBe(201);
    // A reply answering the blocker's reply is refused to the blocked user too.
    const top = created(await comment(c!, cPost.id, 'top'));
    const aReply = created(await reply(a!, top._id, { text: 'a says' }));
    expect((await reply(b!, top._id, { text: 'x', replyTo: aReply._id })).status).toBe(404);
    expect((await reply(a!, top._id, { text: 'x', replyTo: created(await reply(b!, top._id, { text: 'b says' }))._id })).status).toBe(403);
    // The blocker can still take a like back.
    expect((await unlike(a!, top._id)).status).toBe(200);
  });

  it('lists leave out both sides of a block and still walk every other item exactly once', async () => {
    const [viewer, blocksViewer, blockedByViewer, ok] = await makeUsers(4);
    await block(blocksViewer!, viewer!);
    await block(viewer!, blockedByViewer!);
    const post = await makePost(ok!);
    const top = created(await comment(ok!, post.id, 'top'));
    // A long run of hidden replies between visible ones, longer than a page.
    const writers = [ok, blocksViewer, blocksViewer, blockedByViewer, blockedByViewer, blocksViewer, ok,
      ...Array(40).fill(blockedByViewer), ok, blocksViewer, ok];
    const written: { _id: string; author: string }[] = [];
    for (const w of writers) written.push({ ...created(await reply(w!, top._id, { text: 'r' })), author: w!.id });
    const expected = written.filter((r) => r.author === ok!.id).map((r) => r._id);

    for (const limit of [1, 2, 10]) {
      const seen = await walk((q) => replies(viewer!, top._id, q), limit, 'replies');
      expect(seen.map((r) => r._id)).toEqual(expected);
    }
    // Page 1 with limit 2: the visible ones are ok#0 and ok#6; more exist past the hidden run.
    const first = await replies(viewer!, top._id, { limit: '2' });
    expect(first.body.data.replies.map((r: { _id: string }) => r._id)).toEqual(expected.slice(0, 2));
    expect(first.body.data.pagination.hasMore).toBe(true);
    // Everyone else sees all of them.
    expect((await walk((q) => replies(ok!, top._id, q), 50, 'replies')).length).toBe(written.length);
  });

  // A thread of one visible reply, 90 hidden ones (more than a page's 4 reads of 2 + 3 x 25
  // items), then one more visible. With limit 1 the second page has met nothing to show when
  // its reads end, and reads on (until 2026-11-27 it answered an empty page whose cursor was a
  // hidden reply's createdAt); with limit 2 the first page has one item to show, and ends there.
  it.each([
    ['the viewer blocked the run\'s author', '1', 'viewer'],
    ['the run\'s author blocked the viewer', '2', 'author'],
  ] as const)('a hidden run longer than the read bound (%s, limit %s): no page but the last is empty, every cursor is an item shown', async (_, limit, blocker) => {
    const [viewer, hiddenAuthor, ok] = await makeUsers(3);
    await (blocker === 'viewer' ? block(viewer!, hiddenAuthor!) : block(hiddenAuthor!, viewer!));
    const post = await makePost(ok!);
    const top = created(await comment(ok!, post.id, 'top'));
    const visible1 = created(await reply(ok!, top._id, { text: 'first' }));
    for (let i = 0; i < 90; i++) created(await reply(hiddenAuthor!, top._id, { text: `h${i}` }));
    const visible2 = created(await reply(ok!, top._id, { text: 'last' }));

    const page1 = await replies(viewer!, top._id, { limit });
    expect(page1.body.data.replies.map((r: { _id: string }) => r._id)).toEqual([visible1._id]);
    expect(page1.body.data.pagination).toEqual({ hasMore: true, nextCursor: visible1.createdAt });
    const page2 = await replies(viewer!, top._id, { limit, cursor: visible1.createdAt });
    expect(page2.body.data.replies.map((r: { _id: string }) => r._id)).toEqual([visible2._id]);
    expect(page2.body.data.pagination).toEqual({ hasMore: false, nextCursor: visible2.createdAt });
  });
});

describe('the replies of a comment hidden by a block', () => {
  it('are 404 to both sides, as the comment is absent from their lists', async () => {
    const [owner, blocker, blockedUser] = await makeUsers(3);
    const post = await makePost(owner!);
    const byBlocked = created(await comment(blockedUser!, post.id, 'mine'));
    await reply(owner!, byBlocked._id, { text: 'answer' });
    const byBlocker = created(await comment(blocker!, post.id, 'theirs'));
    await reply(owner!, byBlocker._id, { text: 'answer' });
    await block(blocker!, blockedUser!);

    const listed = await comments(blocker!, post.id);
    expect(listed.body.data.comments.map((c: { _id: string }) => c._id)).toEqual([byBlocker._id]);
    const hidden = await replies(blocker!, byBlocked._id);
    expect(hidden.status).toBe(404);
    expect(hidden.body.code).toBe('NOT_FOUND');
    expect((await replies(blockedUser!, byBlocker._id)).status).toBe(404);
    // Unrelated to the block: still readable.
    expect((await replies(owner!, byBlocked._id)).body.data.replies).toHaveLength(1);
    expect((await replies(blocker!, byBlocker._id)).body.data.replies).toHaveLength(1);
  });
});
