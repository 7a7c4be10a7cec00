// Contract section 6: to a user on either side of a block, the other does not exist, not
// even as an id inside someone else's followers, following or likes.
import { call } from '../support/invoke';
import { makeUsers } from '../support/factories';
import { makePost } from '../support/posts';
import { block, follow, unblock } from '../support/graph';
import { handler as editPost } from '../../functions/posts/edit';
import { handler as profile } from '../../functions/users/profile';
import { handler as getPost } from '../../functions/posts/get';
import { handler as likePost } from '../../functions/posts/like';
import { handler as explore } from '../../functions/posts/explore';
import { handler as createComment } from '../../functions/comments/create';
import { handler as likeComment } from '../../functions/comments/like';
import { handler as postComments } from '../../functions/comments/post';
import { scrubHidden } from '../../lib/graph/hidden';

describe('ids hidden by a block', () => {
  it('leave every embedded array, in both directions, and come back after unblocking', async () => {
    const [blocker, blocked, friend] = await makeUsers(3);
    expect((await follow(friend!, blocker!)).status).toBe(200);
    expect((await follow(blocker!, friend!)).status).toBe(200);
    const post = await makePost(friend!);
    expect((await call(likePost, 'POST /posts/like/{post_id}', { token: blocker!.token, params: { post_id: post._id } })).status).toBe(200);
    const c = await call(createComment, 'POST /comments/create/{post_id}', { token: friend!.token, params: { post_id: post._id }, body: { text: 'hi' } });
    expect((await call(likeComment, 'POST /comments/like/{comment_id}', { token: blocker!.token, params: { comment_id: c.body.comment._id } })).status).toBe(200);
    expect((await block(blocker!, blocked!)).status).toBe(200);

    for (const viewer of [blocked!, blocker!]) {
      const other = viewer === blocked ? blocker! : blocked!;
      const seen = await call(profile, 'GET /users/{identifier}', { token: viewer.token, params: { identifier: friend!.username } });
      expect(seen.status).toBe(200);
      expect(seen.body.user.followers).not.toContain(other.id);
      expect(seen.body.user.following).not.toContain(other.id);
      const p = await call(getPost, 'GET /posts/{post_id}', { token: viewer.token, params: { post_id: post._id } });
      expect(p.body.post.likes).not.toContain(other.id);
      const comments = await call(postComments, 'GET /comments/post/{post_id}', { token: viewer.token, params: { post_id: post._id } });
      expect(comments.body.data.comments[0].likes).not.toContain(other.id);
    }
    // The blocked user sees the blocker nowhere; an uninvolved user still sees everyone.
    const byBlocked = await call(profile, 'GET /users/{identifier}', { token: blocked!.token, params: { identifier: friend!.id } });
    expect(byBlocked.body.user.followers).toEqual([]);
    // The friend's post in the blocked user's explore (a list's presentation), found page by
    // page: other test files post to the same table meanwhile.
    let listed: { _id: string; likes: string[] } | undefined;
    for (let page = 1; !listed && page <= 20; page++) {
      const res = await call(explore, 'GET /posts/explore', { token: blocked!.token, query: { limit: '50', page: String(page) } });
      listed = res.body.posts.find((x: { _id: string }) => x._id === post._id);
      if (!res.body.pagination.hasNextPage) break;
    }
    expect(listed).toMatchObject({ _id: post._id });
    expect(listed!.likes).not.toContain(blocker!.id);
    const byFriend = await call(getPost, 'GET /posts/{post_id}', { token: friend!.token, params: { post_id: post._id } });
    expect(byFriend.body.post.likes).toEqual([blocker!.id]);
    const friendsOwn = await call(profile, 'GET /users/{identifier}', { token: friend!.token, params: { identifier: friend!.id } });
    expect(friendsOwn.body.user.followers).toEqual([blocker!.id]);
  });
});

describe('ids hidden by a block, in an answer that is not a GET', () => {
  it('a post edit\'s likes leave likers on either side of a block with the author, and take them back after unblocking', async () => {
    const [author, blocksAuthor, blockedByAuthor, friend] = await makeUsers(4);
    const post = await makePost(author!);
    for (const u of [blocksAuthor!, blockedByAuthor!, friend!]) {
      expect((await call(likePost, 'POST /posts/like/{post_id}', { token: u.token, params: { post_id: post._id } })).status).toBe(200);
    }
    expect((await block(blocksAuthor!, author!)).status).toBe(200);
    expect((await block(author!, blockedByAuthor!)).status).toBe(200);
    const edit = (caption: string) => call(editPost, 'POST /posts/edit/{post_id}', { token: author!.token, params: { post_id: post._id }, body: { caption } });
    const hidden = await edit('first edit');
    expect(hidden.status).toBe(200);
    expect(hidden.body.post.likes).toEqual([friend!.id]);
    // The post's count is the post's, not the caller's view of it.
    expect(hidden.body.post.likesCount).toBe(3);
    expect((await unblock(blocksAuthor!, author!)).status).toBe(200);
    expect((await unblock(author!, blockedByAuthor!)).status).toBe(200);
    expect([...(await edit('second edit')).body.post.likes].sort()).toEqual([blocksAuthor!.id, blockedByAuthor!.id, friend!.id].sort());
  });
});

describe('scrubHidden', () => {
  it('filters the embedded id arrays at any depth and leaves everything else', () => {
    const body = {
      user: { _id: 'A', followers: ['X', 'B'], following: ['X'], blocked_users: ['X'], bookmarks: ['X'] },
      posts: [{ author: 'X', likes: ['X', 'C'] }],
      users: [{ _id: 'D', followerBy: [{ _id: 'E', followers: ['X'] }] }],
    };
    scrubHidden(body, new Set(['X']));
    expect(body).toEqual({
      user: { _id: 'A', followers: ['B'], following: [], blocked_users: ['X'], bookmarks: ['X'] },
      posts: [{ author: 'X', likes: ['C'] }],
      users: [{ _id: 'D', followerBy: [{ _id: 'E', followers: [] }] }],
    });
  });

  it('takes the accounts hidden from everyone out of the viewer\'s blocked_users, and only those', () => {
    // X: blocked by the viewer and suspended (gone); Y: blocked by the viewer only.
    const body = { user: { _id: 'A', followers: ['X', 'Y'], blocked_users: ['X', 'Y'] } };
    scrubHidden(body, new Set(['X', 'Y']), new Set(['X']));
    expect(body).toEqual({ user: { _id: 'A', followers: [], blocked_users: ['Y'] } });
  });
});
