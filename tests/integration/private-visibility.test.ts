// Privacy of a private account on every route (contract section 18), for its five viewers: a
// non-follower, a pending requester, a removed follower, an approved follower and the owner.
// The table names every route of the manifests (functions/*/functions.json): a new route
// without a row fails the first test. Each row either checks what every viewer sees or says
// why the route reads nothing of another account.
import '../support/own-stream-table';
import { ROOT, routes } from '../../scripts/lib/manifests.mjs';
import { call, type CallResult } from '../support/invoke';
import { makePost, users } from '../support/posts';
import { follow } from '../support/graph';
import { comment, comments as commentsOf, created, like as likeComment, replies as repliesOf, reply } from '../support/comment-api';
import { eventually, startTestStream, type TestStream } from '../support/stream';
import type { TestUser } from '../support/factories';
import { approve, removeFollower, setPrivate } from '../support/private';
import { issueUpload } from '../support/media';
import { handler as profileH } from '../../functions/users/profile';
import { handler as meH } from '../../functions/users/me';
import { handler as followersH } from '../../functions/users/followers';
import { handler as followingH } from '../../functions/users/following';
import { handler as searchH } from '../../functions/users/search';
import { handler as suggestedH } from '../../functions/users/suggested';
import { handler as userPostsH } from '../../functions/posts/user';
import { handler as getH } from '../../functions/posts/get';
import { handler as likesH } from '../../functions/posts/likes';
import { handler as likeH } from '../../functions/posts/like';
import { handler as bookmarkH } from '../../functions/posts/bookmark';
import { handler as bookmarksH } from '../../functions/posts/bookmarks';
import { handler as exploreH } from '../../functions/posts/explore';
import { handler as feedH } from '../../functions/posts/feed';
import { handler as notificationsH } from '../../functions/notifications/list';
import { handler as traceH } from '../../functions/logs/trace';
import { handler as mediaH } from '../../functions/media/get';
import { handler as tagH } from '../../functions/tags/get';
import { handler as tagPostsH } from '../../functions/tags/posts';
import { handler as tagSearchH } from '../../functions/tags/search';
import { makePost as makeCaptioned } from '../support/posts';

let stream: TestStream;
beforeAll(() => { stream = startTestStream(); });
afterAll(() => stream.poller.stop());

type Role = 'stranger' | 'requester' | 'removed' | 'follower' | 'owner';
const ROLES: Role[] = ['stranger', 'requester', 'removed', 'follower', 'owner'];
/** Who may see into the private account. */
const open = (r: Role) => r === 'follower' || r === 'owner';

interface World {
  owner: TestUser;
  viewers: Record<Role, TestUser>;
  postId: string;
  commentId: string;
  traceId: string;
  mediaId: string;
  /** A tag only the private account's post carries, posted while private. */
  tag: string;
  taggedId: string;
}
let w: World;

beforeAll(async () => {
  const [owner, stranger, requester, removed, follower, friend] = await users(6);
  await follow(owner, friend);
  await follow(removed, owner);
  await follow(follower, owner);
  const traceId = `private-post-${owner.id}`;
  const post = await makePost(owner);
  // The removed follower bookmarked the post while following; both followers liked it.
  for (const u of [removed, follower]) {
    expect((await call(bookmarkH, 'POST /posts/bookmark/{post_id}', { token: u.token, params: { post_id: post._id } })).status).toBe(200);
    expect((await call(likeH, 'POST /posts/like/{post_id}', { token: u.token, params: { post_id: post._id } })).status).toBe(200);
  }
  const c = created(await comment(owner, post._id, 'mine', { headers: { 'X-Trace-Id': traceId } }));
  created(await reply(owner, c._id, { text: 'also mine' }));
  // The owner likes a post of the stranger's: the stranger's notification names the owner.
  const strangers = await makePost(stranger);
  expect((await call(likeH, 'POST /posts/like/{post_id}', { token: owner.token, params: { post_id: strangers._id } })).status).toBe(200);
  await setPrivate(owner, true);
  expect((await follow(requester, owner)).body).toMatchObject({ requested: true });
  expect((await removeFollower(owner, removed)).status).toBe(200);
  const upload = await issueUpload(owner.token, 'image/png', 1024);
  const tag = `priv${owner.id.toLowerCase()}`;
  const tagged = await makeCaptioned(owner, `#${tag}`);
  // The notifications the rows read are there (the stream's), and the follower's feed has the post.
  await eventually(() => call(notificationsH, 'GET /notifications', { token: stranger.token }), (r) => r.body.notifications.length === 1, 15_000);
  await eventually(() => call(feedH, 'GET /posts/feed', { token: follower.token }), (r) => r.body.posts.some((p: { _id: string }) => p._id === post._id), 15_000);
  w = { owner, viewers: { stranger, requester, removed, follower, owner }, postId: post._id, commentId: c._id, traceId, mediaId: upload.mediaId, tag, taggedId: tagged._id };
}, 120_000);

const ids = (list: { _id: string }[]) => list.map((x) => x._id);
const expectStatus = (res: CallResult, status: number, code?: string) => {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code: code ?? res.body?.code });
};
/** A private account's posts and their threads: 404 to one who may not see into it. */
const hiddenPost = (res: CallResult, role: Role) => (open(role) ? expectStatus(res, 200) : expectStatus(res, 404, 'NOT_FOUND'));
/** Its posts list and follow lists: 403 PRIVATE_ACCOUNT. */
const closedList = (res: CallResult, role: Role) => (open(role) ? expectStatus(res, 200) : expectStatus(res, 403, 'PRIVATE_ACCOUNT'));
/** A user object of the owner as the viewer sees it: lists [] unless it may see into it. */
const ownerObject = (u: { _id: string; isPrivate: boolean; followers: string[]; following: string[] }, role: Role) => {
  expect(u.isPrivate).toBe(true);
  if (open(role)) expect(u.following.length).toBe(1);
  else expect({ followers: u.followers, following: u.following }).toEqual({ followers: [], following: [] });
};

type Check = (viewer: TestUser, role: Role) => Promise<void>;
/** A row: a check per viewer, or why the route reads nothing of another account's. */
const ROWS: Record<string, Check | string> = {
  'GET /users/{identifier}': async (v, role) => {
    const res = await call(profileH, 'GET /users/{identifier}', { token: v.token, params: { identifier: w.owner.id } });
    expectStatus(res, 200);
    ownerObject(res.body.user, role);
    // Counts stay exact for everyone: one approved follower, one following, two posts (one tagged).
    expect(res.body.user).toMatchObject({ followersCount: 1, followingCount: 1, postsCount: 2, requested: role === 'requester' });
  },
  'GET /posts/user/{identifier}': async (v, role) => {
    const res = await call(userPostsH, 'GET /posts/user/{identifier}', { token: v.token, params: { identifier: w.owner.username } });
    closedList(res, role);
    if (open(role)) expect(ids(res.body.posts)).toEqual([w.taggedId, w.postId]);
  },
  'GET /users/{identifier}/followers': async (v, role) => closedList(await call(followersH, 'GET /users/{identifier}/followers', { token: v.token, params: { identifier: w.owner.id } }), role),
  'GET /users/{identifier}/following': async (v, role) => closedList(await call(followingH, 'GET /users/{identifier}/following', { token: v.token, params: { identifier: w.owner.id } }), role),
  'GET /posts/{post_id}': async (v, role) => hiddenPost(await call(getH, 'GET /posts/{post_id}', { token: v.token, params: { post_id: w.postId } }), role),
  'GET /posts/{post_id}/likes': async (v, role) => hiddenPost(await call(likesH, 'GET /posts/{post_id}/likes', { token: v.token, params: { post_id: w.postId } }), role),
  'GET /comments/post/{post_id}': async (v, role) => hiddenPost(await commentsOf(v, w.postId), role),
  'GET /comments/replies/{comment_id}': async (v, role) => hiddenPost(await repliesOf(v, w.commentId), role),
  'POST /posts/like/{post_id}': async (v, role) => hiddenPost(await call(likeH, 'POST /posts/like/{post_id}', { token: v.token, params: { post_id: w.postId } }), role),
  'POST /posts/bookmark/{post_id}': async (v, role) => {
    if (role === 'removed') return; // its bookmark stands from before; GET /posts/bookmarks leaves it out
    hiddenPost(await call(bookmarkH, 'POST /posts/bookmark/{post_id}', { token: v.token, params: { post_id: w.postId } }), role);
  },
  'POST /comments/create/{post_id}': async (v, role) => {
    const res = await comment(v, w.postId, 'hello');
    if (open(role)) expectStatus(res, 201); else expectStatus(res, 404, 'NOT_FOUND');
  },
  'POST /comments/reply/{comment_id}': async (v, role) => {
    const res = await reply(v, w.commentId, { text: 'hello' });
    if (open(role)) expectStatus(res, 201); else expectStatus(res, 404, 'NOT_FOUND');
  },
  'POST /comments/like/{comment_id}': async (v, role) => hiddenPost(await likeComment(v, w.commentId), role),
  'GET /posts/explore': async (v) => {
    // Explore shows no followed author, so a private account's posts to nobody.
    const res = await call(exploreH, 'GET /posts/explore', { token: v.token, query: { limit: '50' } });
    expectStatus(res, 200);
    expect(ids(res.body.posts)).not.toContain(w.postId);
  },
  'GET /tags/{tag}/posts': async (v, role) => {
    const res = await call(tagPostsH, 'GET /tags/{tag}/posts', { token: v.token, params: { tag: w.tag } });
    expectStatus(res, 200);
    expect(ids(res.body.posts)).toEqual(open(role) ? [w.taggedId] : []);
  },
  'GET /tags/{tag}': async (v) => {
    // postsCount counts what everyone may see: a private account's posts for no viewer.
    const res = await call(tagH, 'GET /tags/{tag}', { token: v.token, params: { tag: w.tag } });
    expectStatus(res, 200);
    expect(res.body.tag).toEqual({ name: w.tag, postsCount: 0 });
  },
  'GET /tags': async (v) => {
    // A tag of postsCount 0 is listed to nobody, the owner and its followers included.
    const res = await call(tagSearchH, 'GET /tags', { token: v.token, query: { query: w.tag } });
    expectStatus(res, 200);
    expect(res.body.tags).toEqual([]);
  },
  'GET /push/vapid-key': 'public: the stage\'s VAPID public key, the same for everyone',
  'POST /push/subscriptions': 'the caller\'s own subscriptions',
  'GET /push/subscriptions': 'the caller\'s own subscriptions',
  'DELETE /push/subscriptions/{id}': 'the caller\'s own subscriptions (another user\'s: 404, push.test.ts)',
  'GET /trends/tags': 'counts public accounts only, the same list for every viewer: tags.test.ts',
  'GET /posts/feed': async (v, role) => {
    const res = await call(feedH, 'GET /posts/feed', { token: v.token, query: { limit: '50' } });
    expectStatus(res, 200);
    expect(ids(res.body.posts).includes(w.postId)).toBe(open(role));
  },
  'GET /posts/bookmarks': async (v, role) => {
    const res = await call(bookmarksH, 'GET /posts/bookmarks', { token: v.token });
    expectStatus(res, 200);
    // The removed follower's bookmark stands, but the list leaves its post out.
    // (The owner's own list holds it when a row above bookmarked it.)
    if (role !== 'owner') expect(ids(res.body.posts).includes(w.postId)).toBe(role === 'follower');
  },
  'GET /users/me': async (v, role) => {
    const res = await call(meH, 'GET /users/me', { token: v.token });
    expectStatus(res, 200);
    if (role === 'removed') expect(res.body.user.bookmarks).toEqual([]);
    if (role === 'follower') expect(res.body.user.bookmarks).toEqual([w.postId]);
  },
  'GET /users/search': async (v, role) => {
    const res = await call(searchH, 'GET /users/search', { token: v.token, query: { query: w.owner.username } });
    expectStatus(res, 200);
    const found = res.body.users.find((u: { _id: string }) => u._id === w.owner.id);
    expect(found).toBeDefined();
    ownerObject(found, role);
  },
  'GET /users/suggested': async (v, role) => {
    const res = await call(suggestedH, 'GET /users/suggested', { token: v.token, query: { limit: '50' } });
    expectStatus(res, 200);
    const found = res.body.users.find((u: { _id: string }) => u._id === w.owner.id);
    // Never to its requester; anywhere else, as any user object of it.
    if (role === 'requester') expect(found).toBeUndefined();
    if (found) ownerObject(found, role);
  },
  'GET /notifications': async (v, role) => {
    const res = await call(notificationsH, 'GET /notifications', { token: v.token });
    expectStatus(res, 200);
    for (const n of res.body.notifications) if (n.actor._id === w.owner.id) ownerObject(n.actor, role);
    if (role === 'stranger') expect(res.body.notifications.map((n: { actor: { _id: string } }) => n.actor._id)).toEqual([w.owner.id]);
  },
  'GET /logs/trace/{traceId}': async (v, role) => {
    // Only one's own records: the owner's comment's trace is the owner's alone.
    const res = await call(traceH, 'GET /logs/trace/{traceId}', { token: v.token, params: { traceId: w.traceId } });
    if (role === 'owner') expectStatus(res, 200); else expectStatus(res, 404, 'NOT_FOUND');
  },
  'GET /media/{media_id}': async (v, role) => {
    const res = await call(mediaH, 'GET /media/{media_id}', { token: v.token, params: { media_id: w.mediaId } });
    if (role === 'owner') expectStatus(res, 200); else expectStatus(res, 404, 'NOT_FOUND');
  },
  // Routes that read or change only the caller's own records, or that act on the graph and are
  // covered in private-requests.test.ts (follow, requests, remove, block) and mute.test.ts.
  'POST /auth/register': 'creates an account; reads no other',
  'POST /auth/login': 'the caller\'s own account',
  'POST /auth/refresh': 'the caller\'s own session',
  'POST /auth/logout': 'the caller\'s own session',
  'GET /auth/sessions': 'the caller\'s own sessions',
  'DELETE /auth/sessions/{session_id}': 'the caller\'s own sessions',
  'POST /auth/password': 'the caller\'s own account',
  'POST /auth/2fa/setup': 'the caller\'s own account',
  'POST /auth/2fa/enable': 'the caller\'s own account',
  'POST /auth/2fa/disable': 'the caller\'s own account',
  'POST /auth/login/2fa': 'the caller\'s own account',
  'POST /auth/verify-email': 'the account the token names: the caller\'s own',
  'POST /auth/verify-email/resend': 'the caller\'s own account',
  'POST /auth/password/forgot': 'answers the same for every address; reads nothing back',
  'POST /auth/password/reset': 'the account the token names: the caller\'s own',
  'POST /users/me/email': 'the caller\'s own account',
  'DELETE /users/me': 'the caller\'s own account',
  'POST /users/profile/edit': 'the caller\'s own profile; isPrivate in private-requests.test.ts',
  'POST /users/follow/{identifier}': 'a request to a private account: private-requests.test.ts',
  'POST /users/unfollow/{identifier}': 'cancels a request: private-requests.test.ts',
  'POST /users/block/{identifier}': 'removes requests: private-requests.test.ts',
  'POST /users/unblock/{identifier}': 'the caller\'s own block',
  'GET /users/blocked': 'the caller\'s own blocks; entries are user objects as search shows them',
  'GET /users/follow-requests': 'the caller\'s own requests: private-requests.test.ts',
  'POST /users/follow-requests/{identifier}/approve': 'private-requests.test.ts',
  'POST /users/follow-requests/{identifier}/reject': 'private-requests.test.ts',
  'POST /users/followers/{identifier}/remove': 'private-requests.test.ts',
  'POST /users/mute/{identifier}': 'mute.test.ts',
  'POST /users/unmute/{identifier}': 'mute.test.ts',
  'GET /users/muted': 'the caller\'s own mutes: mute.test.ts',
  'POST /posts/create': 'the caller\'s own post',
  'DELETE /posts/{post_id}': 'author only',
  'POST /posts/edit/{post_id}': 'author only',
  'POST /posts/unlike/{post_id}': 'undoes the caller\'s own like: allowed to a removed follower',
  'POST /posts/unbookmark/{post_id}': 'undoes the caller\'s own bookmark: allowed to a removed follower',
  'DELETE /comments/{comment_id}': 'the comment\'s or the post\'s author only',
  'POST /comments/unlike/{comment_id}': 'undoes the caller\'s own like',
  'POST /notifications/read': 'the caller\'s own notifications',
  'POST /media/uploads': 'the caller\'s own upload',
  'POST /reports': 'a report names a target; shows nothing of it',
  'GET /moderation/reports': 'moderators only (scope moderate)',
  'POST /moderation/reports/{report_id}/resolve': 'moderators only (scope moderate)',
  'POST /moderation/users/{user_id}/unsuspend': 'moderators only (scope moderate)',
  'GET /openapi.json': 'public document',
  'GET /docs': 'public document',
  'GET /docs/{asset}': 'public document',
  '* *': 'the not-found route',
};

it('has a row for every route of the manifests, and none for a route that does not exist', () => {
  expect(Object.keys(ROWS).sort()).toEqual(routes(ROOT).map((r) => r.key).sort());
});

const checked = Object.entries(ROWS).filter((e): e is [string, Check] => typeof e[1] === 'function');
describe.each(checked)('%s', (_route, check) => {
  it.each(ROLES)('as the %s', async (role) => { await check(w.viewers[role], role); });
});
