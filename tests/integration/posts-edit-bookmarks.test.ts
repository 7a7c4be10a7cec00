// POST /posts/edit/{post_id} and GET /posts/bookmarks (contract section 8).
import { call } from '../support/invoke';
import { getItem } from '../support/db';
import { makePost, users } from '../support/posts';
import { block, unblock } from '../support/graph';
import { handler as edit } from '../../functions/posts/edit';
import { handler as bookmarksH } from '../../functions/posts/bookmarks';
import { handler as bookmark } from '../../functions/posts/bookmark';
import { handler as unbookmark } from '../../functions/posts/unbookmark';
import { handler as like } from '../../functions/posts/like';
import { handler as deletePost } from '../../functions/posts/delete';
import { handler as getPost } from '../../functions/posts/get';
import { handler as trace } from '../../functions/logs/trace';
import { handler as meH } from '../../functions/users/me';
import { handler as profileH } from '../../functions/users/profile';
import { handler as loginH } from '../../functions/auth/login';
import { handler as editProfileH } from '../../functions/users/edit';
import * as keys from '../../lib/keys';
import { newId } from '../../lib/ids';
import { nextUpdatedAt } from '../../lib/posts/write';
import type { TestUser } from '../support/factories';

const editPost = (u: TestUser, postId: string, body: unknown, headers?: Record<string, string>) =>
  call(edit, 'POST /posts/edit/{post_id}', { token: u.token, params: { post_id: postId }, body, headers });
const bookmarks = (u: TestUser, query: Record<string, string> = {}) => call(bookmarksH, 'GET /posts/bookmarks', { token: u.token, query });
const mark = async (u: TestUser, postId: string) =>
  expect((await call(bookmark, 'POST /posts/bookmark/{post_id}', { token: u.token, params: { post_id: postId } })).status).toBe(200);

describe('POST /posts/edit/{post_id}', () => {
  it('changes the caption (trimmed), moves updatedAt, answers the post with its fields and records POST_UPDATED', async () => {
    const [author, fan] = await users(2);
    const post = await makePost(author, 'before');
    expect((await call(like, 'POST /posts/like/{post_id}', { token: fan.token, params: { post_id: post._id } })).status).toBe(200);
    const traceId = `edit-${post._id}`;
    const res = await editPost(author, post._id.toLowerCase(), { caption: '  after  ' }, { 'X-Trace-Id': traceId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: 'Post updated successfully',
      post: {
        ...post, caption: 'after', updatedAt: expect.any(String), likes: [fan.id],
        isLiked: false, isBookmarked: false, likesCount: 1, commentsCount: 0,
      },
    });
    expect(res.body.post.updatedAt > String(post.updatedAt)).toBe(true);
    expect(res.body.post.createdAt).toBe(post.createdAt);
    expect(await getItem(keys.post(post._id))).toMatchObject({ caption: 'after', updatedAt: res.body.post.updatedAt, likesCount: 1 });
    // Every read shows the edit.
    const read = await call(getPost, 'GET /posts/{post_id}', { token: fan.token, params: { post_id: post._id } });
    expect(read.body.post).toMatchObject({ caption: 'after', updatedAt: res.body.post.updatedAt });

    const logs = (await call(trace, 'GET /logs/trace/{traceId}', { token: author.token, params: { traceId } })).body.data.logs;
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      level: 'INFO', action: { type: 'POST_UPDATED' }, actor: { type: 'user', id: author.id },
      payload: { params: { post_id: post._id }, body: { caption: 'after' } },
      stateDiff: { before: { caption: 'before', updatedAt: post.updatedAt }, after: { caption: 'after', updatedAt: res.body.post.updatedAt } },
    });
    expect(logs[0].stateDiff.changes.sort()).toEqual(['caption', 'updatedAt']);
  });

  it('takes an empty caption, and moves updatedAt past the creation even within its millisecond', async () => {
    const [author] = await users(1);
    const post = await makePost(author, 'x');
    const res = await editPost(author, post._id, { caption: '' });
    expect([res.status, res.body.post.caption]).toEqual([200, '']);
    expect(nextUpdatedAt('2026-01-01T00:00:00.000Z', Date.parse('2026-01-01T00:00:00.000Z'))).toBe('2026-01-01T00:00:00.001Z');
    expect(nextUpdatedAt('2026-01-01T00:00:00.000Z', Date.parse('2026-01-01T00:00:05.000Z'))).toBe('2026-01-01T00:00:05.000Z');
  });

  it("refuses someone else's post with 403, a missing, deleted or hidden one with 404, and changes nothing", async () => {
    const [author, other] = await users(2);
    const post = await makePost(author, 'mine');
    const forbidden = await editPost(other, post._id, { caption: 'hijacked' });
    expect([forbidden.status, forbidden.body.code]).toEqual([403, 'FORBIDDEN']);
    expect((await editPost(other, newId(), { caption: 'x' })).status).toBe(404);
    await block(author, other);
    expect((await editPost(other, post._id, { caption: 'hijacked' })).status).toBe(404);
    await unblock(author, other);
    expect(await getItem(keys.post(post._id))).toMatchObject({ caption: 'mine', updatedAt: post.updatedAt });
    expect((await call(deletePost, 'DELETE /posts/{post_id}', { token: author.token, params: { post_id: post._id } })).status).toBe(200);
    expect((await editPost(author, post._id, { caption: 'too late' })).status).toBe(404);
  });

  it('refuses a body without caption, with another field, or a caption over 2,200 characters', async () => {
    const [author] = await users(1);
    const post = await makePost(author, 'kept');
    for (const body of [{}, { caption: 'x', image: 'https://cdn.example.test/x.jpg' }, { caption: 'x'.repeat(2201) }, { caption: 5 }]) {
      const res = await editPost(author, post._id, body);
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    }
    expect(await getItem(keys.post(post._id))).toMatchObject({ caption: 'kept', updatedAt: post.updatedAt });
  });

  it('ten concurrent edits all succeed; the post ends with one of them and the latest updatedAt', async () => {
    const [author] = await users(1);
    const post = await makePost(author, 'start');
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => editPost(author, post._id, { caption: `edit ${i}` })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    const stored = await getItem(keys.post(post._id));
    expect(results.map((r) => r.body.post.caption)).toContain(stored!.caption);
  });
});

describe('GET /posts/bookmarks', () => {
  it('lists the bookmarked posts newest bookmark first, with the fields of explore', async () => {
    const [reader, a, b] = await users(3);
    const [p1, p2, p3] = [await makePost(a, 'one'), await makePost(b, 'two'), await makePost(a, 'three')];
    for (const p of [p2, p1, p3]) await mark(reader, p._id);
    const res = await bookmarks(reader);
    expect(res.status).toBe(200);
    expect(res.body.posts.map((p: { _id: string }) => p._id)).toEqual([p3._id, p1._id, p2._id]);
    expect(res.body.posts[0]).toEqual({ ...p3, isLiked: false, isBookmarked: true, likesCount: 0, commentsCount: 0 });
    expect(res.body.pagination).toEqual({ hasMore: false, nextCursor: null });
    expect(Object.keys(res.body).sort()).toEqual(['pagination', 'posts', 'success']);
  });

  it('walks every bookmark once with limit and cursor; a bad limit or cursor is 400', async () => {
    const [reader, a] = await users(2);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) { const p = await makePost(a, `p${i}`); await mark(reader, p._id); ids.unshift(p._id); }
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const res = await bookmarks(reader, { limit: '2', ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      seen.push(...res.body.posts.map((p: { _id: string }) => p._id));
      if (!res.body.pagination.hasMore) break;
      cursor = res.body.pagination.nextCursor;
    }
    expect(seen).toEqual(ids);
    for (const query of [{ limit: '0' }, { limit: '51' }, { limit: 'x' }, { cursor: 'nope' }, { cursor: Buffer.from('2026-01-01T00:00:00.000Z#x').toString('base64url') }] as Record<string, string>[]) {
      const res = await bookmarks(reader, query);
      expect({ query, status: res.status, code: res.body.code }).toEqual({ query, status: 400, code: 'VALIDATION_ERROR' });
    }
  });

  it('leaves out deleted posts, posts of users on either side of a block, and removed bookmarks', async () => {
    const [reader, kept, gone, blocker, blockedByReader, unmarked] = await users(6);
    const posts = {
      kept: await makePost(kept), gone: await makePost(gone), blocker: await makePost(blocker),
      blocked: await makePost(blockedByReader), unmarked: await makePost(unmarked),
    };
    for (const p of Object.values(posts)) await mark(reader, p._id);
    expect((await call(deletePost, 'DELETE /posts/{post_id}', { token: gone.token, params: { post_id: posts.gone._id } })).status).toBe(200);
    await block(blocker, reader);
    await block(reader, blockedByReader);
    expect((await call(unbookmark, 'POST /posts/unbookmark/{post_id}', { token: reader.token, params: { post_id: posts.unmarked._id } })).status).toBe(200);
    const res = await bookmarks(reader);
    expect(res.body.posts.map((p: { _id: string }) => p._id)).toEqual([posts.kept._id]);
    // The reader's own bookmarks array leaves out the same posts, wherever its own object is
    // answered: GET /users/me, its profile, a login, a profile edit (contract section 6).
    const own = {
      me: (await call(meH, 'GET /users/me', { token: reader.token })).body.user.bookmarks,
      profile: (await call(profileH, 'GET /users/{identifier}', { token: reader.token, params: { identifier: reader.id } })).body.user.bookmarks,
      login: (await call(loginH, 'POST /auth/login', { body: { identifier: reader.username, password: reader.password } })).body.user.bookmarks,
      edit: (await call(editProfileH, 'POST /users/profile/edit', { token: reader.token, body: { bio: 'reads a lot' } })).body.user.bookmarks,
    };
    expect(own).toEqual({ me: [posts.kept._id], profile: [posts.kept._id], login: [posts.kept._id], edit: [posts.kept._id] });
    // The bookmark itself stays: unblocked, the post is back in both.
    await unblock(blocker, reader);
    expect((await bookmarks(reader)).body.posts.map((p: { _id: string }) => p._id)).toEqual([posts.blocker._id, posts.kept._id]);
    expect((await call(meH, 'GET /users/me', { token: reader.token })).body.user.bookmarks).toEqual([posts.blocker._id, posts.kept._id]);
    // Another user sees only their own bookmarks.
    expect((await bookmarks(kept)).body.posts).toEqual([]);
  });
});
