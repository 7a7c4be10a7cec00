import type { TestUser } from '../support/factories';
import { block, follow, followers, following, users } from '../support/graph';
import { call } from '../support/invoke';
import { makePost } from '../support/posts';
import { handler as bookmarkH } from '../../functions/posts/bookmark';
import { handler as deletePostH } from '../../functions/posts/delete';
import { handler as likeH } from '../../functions/posts/like';
import { handler as likesH } from '../../functions/posts/likes';

const ids = (list: { _id: string }[]) => list.map((u) => u._id);

/** Follows one after another, so the newest-first order is known. */
async function followInOrder(fans: TestUser[], star: TestUser) {
  for (const f of fans) expect((await follow(f, star)).status).toBe(200);
}

describe('GET /users/{identifier}/followers and /following', () => {
  it('lists followers newest first with isFollowing relative to the caller, no private fields', async () => {
    const [star, viewer, f1, f2, f3] = await users(5);
    await followInOrder([f1!, f2!, f3!], star!);
    await follow(viewer!, f2!);
    const res = await followers(viewer!, star!.username.toUpperCase());
    expect(res.status).toBe(200);
    expect(ids(res.body.followers)).toEqual([f3!.id, f2!.id, f1!.id]);
    expect(res.body.followers.map((u: { isFollowing: boolean }) => u.isFollowing)).toEqual([false, true, false]);
    expect(res.body.pagination).toEqual({ hasMore: false, nextCursor: null });
    for (const u of res.body.followers) {
      expect(u).not.toHaveProperty('email');
      expect(u).not.toHaveProperty('bookmarks');
      expect(u).not.toHaveProperty('blocked_users');
      expect(u.following).toEqual([star!.id]);
    }
  });

  it('shows the caller its own object with private fields in a list', async () => {
    const [star, me] = await users(2);
    await follow(me!, star!);
    const res = await followers(me!, star!);
    expect(res.body.followers[0]).toMatchObject({ _id: me!.id, email: me!.email, isFollowing: false });
  });

  it("gives the caller's own object its live bookmarks and blocks, by id and by username alike", async () => {
    const [star, me, author, fan, other] = await users(5);
    const kept = await makePost(author!);
    const gone = await makePost(author!);
    for (const p of [gone, kept]) {
      expect((await call(bookmarkH, 'POST /posts/bookmark/{post_id}', { token: me!.token, params: { post_id: p._id } })).status).toBe(200);
    }
    expect((await call(deletePostH, 'DELETE /posts/{post_id}', { token: author!.token, params: { post_id: gone._id } })).status).toBe(200);
    expect((await block(me!, other!)).status).toBe(200);
    await followInOrder([me!, fan!], star!);
    await follow(star!, me!);

    const byId = await followers(me!, star!.id);
    const byName = await followers(me!, star!.username);
    expect(byId.status).toBe(200);
    expect(byName.body).toEqual(byId.body);
    expect(ids(byId.body.followers)).toEqual([fan!.id, me!.id]);
    const own = byId.body.followers[1];
    expect(own).toMatchObject({ _id: me!.id, email: me!.email, bookmarks: [kept._id], blocked_users: [other!.id], following: [star!.id], followers: [star!.id] });
    expect(byId.body.followers[0]).not.toHaveProperty('bookmarks');

    const theirs = await following(me!, star!.id);
    expect(ids(theirs.body.following)).toEqual([me!.id]);
    expect(theirs.body.following[0]).toMatchObject({ bookmarks: [kept._id], blocked_users: [other!.id] });
  });

  it('lists following newest first', async () => {
    const [fan, a, b, c] = await users(4);
    for (const u of [a!, b!, c!]) await follow(fan!, u);
    const res = await following(a!, fan!);
    expect(res.status).toBe(200);
    expect(ids(res.body.following)).toEqual([c!.id, b!.id, a!.id]);
    expect(res.body.following.map((u: { isFollowing: boolean }) => u.isFollowing)).toEqual([false, false, false]);
  });

  it('walks pages: each follower exactly once, exact hasMore, null cursor at the end', async () => {
    const [star, viewer, ...fans] = await users(9);
    await followInOrder(fans, star!);
    const seen: string[] = [];
    let cursor: string | undefined;
    const sizes: number[] = [];
    for (let page = 0; page < 10; page++) {
      const res = await followers(viewer!, star!, { limit: '3', ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      seen.push(...ids(res.body.followers));
      sizes.push(res.body.followers.length);
      if (!res.body.pagination.hasMore) {
        expect(res.body.pagination.nextCursor).toBeNull();
        break;
      }
      cursor = res.body.pagination.nextCursor;
    }
    expect(sizes).toEqual([3, 3, 1]);
    expect(seen).toEqual(fans.map((f) => f.id).reverse());
  });

  it('leaves out users on either side of a block with the caller, and still walks every visible one once', async () => {
    const [star, viewer, ok1, blockedByViewer, blocksViewer, ok2] = await users(6);
    await followInOrder([ok1!, blockedByViewer!, blocksViewer!, ok2!], star!);
    await block(viewer!, blockedByViewer!);
    await block(blocksViewer!, viewer!);
    const all = await followers(viewer!, star!);
    expect(ids(all.body.followers)).toEqual([ok2!.id, ok1!.id]);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const res = await followers(viewer!, star!, { limit: '1', ...(cursor ? { cursor } : {}) });
      expect(res.body.followers.length).toBeLessThanOrEqual(1);
      seen.push(...ids(res.body.followers));
      if (!res.body.pagination.hasMore) break;
      cursor = res.body.pagination.nextCursor;
    }
    expect(seen).toEqual([ok2!.id, ok1!.id]);
    // The following lists of the hidden users are hidden from both sides' views the same way.
    const fromOther = await following(viewer!, blocksViewer!);
    expect(fromOther.status).toBe(404);
  });

  it('never ends a page on a hidden user: no cursor names one, no page but an empty list\'s is empty, hasMore only when a visible user follows', async () => {
    // Followers, newest first: hiddenNewest, ok2, 30 hidden (past a refill read of 25), ok1.
    const [star, viewer, ok1, ok2, hiddenNewest] = await users(5);
    const run = await users(30);
    await followInOrder([ok1!], star!);
    await followInOrder(run, star!);
    await followInOrder([ok2!, hiddenNewest!], star!);
    for (const [i, h] of [...run, hiddenNewest!].entries()) expect((await (i % 2 ? block(viewer!, h) : block(h, viewer!))).status).toBe(200);
    const hidden = new Set([...run, hiddenNewest!].map((h) => h.id));
    for (const limit of ['1', '2', '50']) {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 5; page++) {
        const res = await followers(viewer!, star!, { limit, ...(cursor ? { cursor } : {}) });
        expect(res.status).toBe(200);
        // Until 2026-11-27 a page cut after a hidden user was empty, said hasMore and carried
        // that user's id in its cursor.
        expect({ limit, page, size: res.body.followers.length }).not.toEqual({ limit, page, size: 0 });
        seen.push(...ids(res.body.followers));
        const { hasMore, nextCursor } = res.body.pagination;
        if (!hasMore) {
          expect(nextCursor).toBeNull();
          break;
        }
        expect(hidden.has(String(nextCursor).split('.').pop()!)).toBe(false);
        expect(String(nextCursor).split('.').pop()).toBe(seen[seen.length - 1]);
        cursor = nextCursor;
      }
      expect({ limit, seen }).toEqual({ limit, seen: [ok2!.id, ok1!.id] });
    }
    // A list of hidden users only is one empty page.
    const onlyHidden = await users(1);
    await follow(run[0]!, onlyHidden[0]!);
    expect((await followers(viewer!, onlyHidden[0]!, { limit: '1' })).body).toMatchObject({ followers: [], pagination: { hasMore: false, nextCursor: null } });
    // Likes of a post: the same pages.
    const post = await makePost(star!);
    for (const u of [ok1!, run[0]!, run[1]!, ok2!, hiddenNewest!]) {
      expect((await call(likeH, 'POST /posts/like/{post_id}', { token: u.token, params: { post_id: post._id } })).status).toBe(200);
    }
    const likes = (cursor?: string) => call(likesH, 'GET /posts/{post_id}/likes', { token: viewer!.token, params: { post_id: post._id }, query: { limit: '1', ...(cursor ? { cursor } : {}) } });
    const l1 = await likes();
    expect(ids(l1.body.likes)).toEqual([ok2!.id]);
    expect(l1.body.pagination).toMatchObject({ hasMore: true });
    expect(String(l1.body.pagination.nextCursor).split('.').pop()).toBe(ok2!.id);
    const l2 = await likes(l1.body.pagination.nextCursor);
    expect(ids(l2.body.likes)).toEqual([ok1!.id]);
    expect(l2.body.pagination).toEqual({ hasMore: false, nextCursor: null });
  });

  it('leaves out followings on either side of a block with the caller', async () => {
    const [fan, viewer, ok, blockedByViewer, blocksViewer] = await users(5);
    for (const u of [ok, blockedByViewer, blocksViewer]) await follow(fan, u);
    await block(viewer, blockedByViewer);
    await block(blocksViewer, viewer);
    // The two newest are hidden: the page reads on past them to the visible one.
    const res = await following(viewer, fan, { limit: '2' });
    expect(ids(res.body.following)).toEqual([ok.id]);
    expect(res.body.pagination).toEqual({ hasMore: false, nextCursor: null });
  });

  it('answers 404 for an unknown user and 400 for a cursor of another shape', async () => {
    const [viewer] = await users(1);
    expect((await followers(viewer!, '01ARZ3NDEKTSV4RRFFQ69G5FAV')).status).toBe(404);
    expect((await following(viewer!, 'no_such_user_here')).status).toBe(404);
    const bad = await followers(viewer!, viewer!, { cursor: Buffer.from('2026-01-01T00:00:00.000Z#x').toString('base64url') });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toBe('cursor');
  });
});
