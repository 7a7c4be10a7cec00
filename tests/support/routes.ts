// Every route the service deploys (functions/*/functions.json, through serverless.yml), with
// its real handler and spec, for the table-driven security and bad-input suites. A new route
// is picked up by itself; what it needs from you is an entry in FIXTURES below: a valid
// request (path values, body) for a caller `me` and another user `other`. Add the keys of
// what a successful call would create to `creates`, so a refused call can be shown to
// have created none of it.
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { ROOT, routes } from '../../scripts/lib/manifests.mjs';
import { jsonSchema, isOperation } from '../../lib/openapi/document';
import type { RouteSpecLike } from '../../lib/openapi/document';
import * as keys from '../../lib/keys';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../../lib/db/client';
import { addNotification } from '../../lib/notifications/store';
import { call, type CallOptions, type CallResult } from './invoke';
import { makeUser, uniq, type TestUser } from './factories';
import { makePost } from './posts';
import { block, follow, unblock, unfollow } from './graph';
import { mute, setPrivate, unmute } from './private';
import { comment, created, like as likeComment, reply, unlike as unlikeComment } from './comment-api';
import { handler as login } from '../../functions/auth/login';
import { handler as likePost } from '../../functions/posts/like';
import { handler as unlikePost } from '../../functions/posts/unlike';
import { handler as bookmarkPost } from '../../functions/posts/bookmark';
import { handler as unbookmarkPost } from '../../functions/posts/unbookmark';
import { issueUpload } from './media';
import { signToken } from '../../lib/auth/tokens';
import { MODERATE } from '../../lib/reports/reports';
import { suspendAccount } from '../../lib/account/suspend';
import { getUser } from '../../lib/users/repo';
import { handler as reportH } from '../../functions/reports/create';
import { challengeOf, codeNow, withTwoFactor } from './two-factor';
import { getItem } from './db';
import { handler as twoFactorSetupH } from '../../functions/auth/two-factor-setup';
import { issueToken } from '../../lib/mail/tokens';
import { newId } from '../../lib/ids';
import { subscribe } from '../../lib/live/subscriptions';

type Handler = ((event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2 | void>) & { spec: RouteSpecLike };

export interface FixtureContext { me: TestUser; other: TestUser }
export interface Valid extends Pick<CallOptions, 'params' | 'query' | 'body'> {
  /** Keys a successful call would create: a refused call must leave each missing. */
  creates?: { PK: string; SK: string }[];
  /** Items the request would change (a post whose counters move, an edge it removes): a refused call leaves each as it was. */
  watch?: { PK: string; SK: string }[];
  /** The token to send instead of `me`'s: a route that ends the session of its own token gets a session of its own. */
  token?: string;
  /** The user of `token` when that is not `me` (a route that deletes its own account gets an account of its own). */
  owner?: string;
}
type Fixture = (ctx: FixtureContext) => Valid | Promise<Valid>;

/** A browser's PushSubscription as its toJSON() gives it (keys of a real P-256 pair). */
export const PUSH_SUBSCRIPTION = {
  keys: { p256dh: 'BCWm2rWgOWqp2bksm_mcaUSSaV1phuh4fhmjOU2vavdtUrlvrVHrl-sWKEgjd_gBXfO_LyG-WQScuJQbkvAyTTw', auth: 'q2k3hJ7lA0Vd9Xb1sYw0aQ' },
  expirationTime: null,
};

export const FIXTURES: Record<string, Fixture> = {
  'POST /auth/register': () => {
    const username = uniq('fx');
    return {
      body: { name: 'Fixture User', username, email: `${username}@example.test`, password: 'correct horse' },
      creates: [keys.username(username), keys.email(`${username}@example.test`)],
    };
  },
  'POST /auth/login': ({ me }) => ({ body: { identifier: me.email, password: me.password } }),
  'GET /users/me': () => ({}),
  'GET /users/{identifier}': ({ other }) => ({ params: { identifier: other.username } }),
  'POST /users/profile/edit': () => {
    const username = uniq('fe');
    return { body: { name: 'Edited Name', username, bio: 'edited' }, creates: [keys.username(username)] };
  },
  'GET /logs/trace/{traceId}': async ({ me }) => {
    // A trace with a record of `me`: a login under a trace id of our choosing.
    const traceId = `fixture-${uniq('t')}`;
    const res = await call(login, 'POST /auth/login', { body: { identifier: me.email, password: me.password }, headers: { 'X-Trace-Id': traceId } });
    if (res.status !== 200) throw new Error(`fixture login failed: ${res.status}`);
    return { params: { traceId } };
  },
  'GET /openapi.json': () => ({}),

  // Media: issuing an upload, and reading one's own (pending) media.
  'POST /media/uploads': () => ({ body: { contentType: 'image/jpeg', size: 2048 } }),
  'GET /media/{media_id}': async ({ me }) => {
    const upload = await issueUpload(me.token, 'image/png', 1024);
    return { params: { media_id: upload.mediaId }, watch: [keys.media(upload.mediaId)] };
  },
  // Sessions: each ending gets a session of its own (a new login of `me`), so `me`'s token stays good.
  'POST /auth/refresh': async ({ me }) => {
    const s = await loginAgain(me);
    return { body: { refreshToken: s.refreshToken }, watch: [keys.session(me.id, s.sessionId)] };
  },
  'POST /auth/logout': async ({ me }) => {
    const s = await loginAgain(me);
    return { token: s.token, watch: [keys.session(me.id, s.sessionId)] };
  },
  'GET /auth/sessions': () => ({}),
  'DELETE /auth/sessions/{session_id}': async ({ me }) => {
    const s = await loginAgain(me);
    return { params: { session_id: s.sessionId }, watch: [keys.session(me.id, s.sessionId)] };
  },
  'POST /auth/password': async ({ me }) => {
    // Another session for the change to end; the password stays what `me` knows.
    const s = await loginAgain(me);
    return { body: { currentPassword: me.password, newPassword: me.password }, watch: [keys.session(me.id, s.sessionId)] };
  },
  // Two-factor sign-in: accounts of their own (turning it on changes their login), one per route
  // and caller, made again only when a call that went through changed what the route needs.
  'POST /auth/2fa/setup': async ({ me }) => {
    const a = await twoFactorAccount('setup', me, 'off');
    return { token: a.u.token, owner: a.u.id, body: { password: a.u.password }, watch: [keys.user(a.u.id), keys.twoFactor(a.u.id)] };
  },
  'POST /auth/2fa/enable': async ({ me }) => {
    const a = await twoFactorAccount('enable', me, 'pending');
    return { token: a.u.token, owner: a.u.id, body: { code: codeNow(a.secret) }, watch: [keys.user(a.u.id), keys.twoFactor(a.u.id)] };
  },
  'POST /auth/2fa/disable': async ({ me }) => {
    const a = await twoFactorAccount('disable', me, 'on');
    return { token: a.u.token, owner: a.u.id, body: { password: a.u.password, code: a.codes[a.next++] }, watch: [keys.user(a.u.id), keys.twoFactor(a.u.id)] };
  },
  'POST /auth/login/2fa': async ({ me }) => {
    const a = await twoFactorAccount('login', me, 'on');
    return { body: { challenge: await challengeOf(a.u), code: a.codes[a.next++] }, watch: [keys.twoFactor(a.u.id)] };
  },
  // E-mail (contract section 16): tokens made as the stream's mail reaction makes them, for
  // accounts of their own (a verification changes the account; a reset ends every session).
  'POST /auth/verify-email': async () => {
    const u = await makeUser();
    const token = await issueToken({ kind: 'VERIFY', userId: u.id, address: u.email, mailId: newId() });
    return { body: { token }, watch: [keys.user(u.id)] };
  },
  'POST /auth/verify-email/resend': () => ({}),
  'POST /auth/password/forgot': ({ me }) => ({ body: { email: me.email } }),
  'POST /auth/password/reset': async () => {
    const u = await makeUser();
    const token = await issueToken({ kind: 'RESET', userId: u.id, address: u.email, mailId: newId() });
    return { body: { token, newPassword: 'a new password 1' }, watch: [keys.user(u.id)] };
  },
  'POST /users/me/email': ({ me }) => ({ body: { email: `${uniq('ne')}@example.test`, password: me.password } }),
  'DELETE /users/me': async () => {
    // An account of its own: the valid call deletes it.
    const u = await makeUser();
    return { token: u.token, owner: u.id, body: { password: u.password }, watch: [keys.user(u.id), keys.username(u.username)] };
  },
  // Reports and moderation: a fresh post of `other` for each report; the moderation routes
  // with a token of `me`'s session carrying the scope `moderate`.
  'POST /reports': async ({ other }) => {
    const post = await makePost(other);
    return { body: { targetType: 'post', targetId: post._id, reason: 'spam' }, creates: [keys.openReport('post', post._id)] };
  },
  'GET /moderation/reports': async ({ me }) => ({ token: await signToken({ userId: me.id, sessionId: me.sessionId, epoch: 0 }, [MODERATE]) }),
  'POST /moderation/reports/{report_id}/resolve': async ({ me, other }) => {
    const post = await makePost(other);
    const filed = await call(reportH, 'POST /reports', { token: (await third('reporter')(me)).token, body: { targetType: 'post', targetId: post._id, reason: 'spam' } });
    if (filed.status !== 201) throw new Error(`fixture report failed: ${filed.status} ${filed.text}`);
    const reportId = filed.body.report._id as string;
    return { token: await signToken({ userId: me.id, sessionId: me.sessionId, epoch: 0 }, [MODERATE]), params: { report_id: reportId }, body: { action: 'dismiss' }, watch: [keys.report(reportId)] };
  },
  'POST /moderation/users/{user_id}/unsuspend': async ({ me }) => {
    const target = await makeUser();
    await suspendAccount((await getUser(target.id))!, me.id, { traceId: 'fixture', scenarioId: 'fixture', stepId: 'fixture', simTimestamp: 0 }, {});
    return { token: await signToken({ userId: me.id, sessionId: me.sessionId, epoch: 0 }, [MODERATE]), params: { user_id: target.id }, watch: [keys.user(target.id), keys.gone(target.id)] };
  },

  // Social graph. Each fixture first puts the pair in the state the request changes, through
  // the real endpoints, so that a valid call always does something and a refused one is seen.
  'POST /users/follow/{identifier}': async ({ me, other }) => {
    await ok(unfollow(me, other));
    return { params: { identifier: other.username }, creates: [keys.follow(me.id, other.id)] };
  },
  'POST /users/unfollow/{identifier}': async ({ me, other }) => {
    await ok(follow(me, other));
    return { params: { identifier: other.username }, watch: [keys.follow(me.id, other.id)] };
  },
  'POST /users/block/{identifier}': async ({ me, other }) => {
    // `other` follows `me`: blocking removes that follow too.
    await ok(unblock(me, other));
    await ok(follow(other, me));
    return { params: { identifier: other.id }, creates: [keys.block(me.id, other.id)], watch: [keys.follow(other.id, me.id)] };
  },
  'POST /users/unblock/{identifier}': async ({ me, other }) => {
    await ok(block(me, other));
    return { params: { identifier: other.id }, watch: [keys.block(me.id, other.id)] };
  },
  // Lists with someone on them, so that the users of a page are read too: the caller and a
  // third user (the caller's own item is not read again, so a page of only the caller reads none).
  'GET /users/{identifier}/followers': async ({ me, other }) => {
    await ok(follow(me, other));
    await ok(follow(await makeUser(), other));
    return { params: { identifier: other.username } };
  },
  'GET /users/{identifier}/following': async ({ me, other }) => {
    await ok(follow(other, me));
    await ok(follow(other, await makeUser()));
    return { params: { identifier: other.id } };
  },
  'GET /users/blocked': async ({ me }) => {
    await ok(block(me, await strangerOf(me)));
    return {};
  },
  // Contract section 18: a private account of its own (its token), with `me`'s request pending.
  'GET /users/follow-requests': async ({ me }) => {
    const owner = await makeUser();
    await ok(setPrivate(owner, true));
    await ok(follow(me, owner));
    return { token: owner.token, owner: owner.id };
  },
  'POST /users/follow-requests/{identifier}/approve': async ({ me }) => {
    const owner = await makeUser();
    await ok(setPrivate(owner, true));
    await ok(follow(me, owner));
    return { token: owner.token, owner: owner.id, params: { identifier: me.id }, creates: [keys.follow(me.id, owner.id)], watch: [keys.followRequest(me.id, owner.id)] };
  },
  'POST /users/follow-requests/{identifier}/reject': async ({ me }) => {
    const owner = await makeUser();
    await ok(setPrivate(owner, true));
    await ok(follow(me, owner));
    return { token: owner.token, owner: owner.id, params: { identifier: me.id }, watch: [keys.followRequest(me.id, owner.id)] };
  },
  'POST /users/followers/{identifier}/remove': async ({ me, other }) => {
    await ok(follow(other, me));
    return { params: { identifier: other.id }, watch: [keys.follow(other.id, me.id)] };
  },
  'POST /users/mute/{identifier}': async ({ me, other }) => {
    await ok(unmute(me, other));
    return { params: { identifier: other.id }, creates: [keys.mute(me.id, other.id)] };
  },
  'POST /users/unmute/{identifier}': async ({ me, other }) => {
    await ok(mute(me, other));
    return { params: { identifier: other.id }, watch: [keys.mute(me.id, other.id)] };
  },
  'GET /users/muted': async ({ me }) => {
    await ok(mute(me, await strangerOf(me)));
    return {};
  },
  'GET /users/suggested': async ({ me, other }) => {
    // A graph signal: `me` follows a friend who follows `other`.
    const friend = await friendOf(me);
    await ok(follow(me, friend));
    await ok(follow(friend, other));
    return {};
  },
  'GET /users/search': ({ other }) => ({ query: { query: other.username.toUpperCase() } }),

  // Posts: reads and edges on a post of `other` (one per user, made once); a deletion on a fresh post of `me`.
  'POST /posts/create': () => ({ body: { image: JSON.stringify(['https://cdn.example.test/fixture.jpg']), caption: 'fixture' } }),
  'GET /posts/explore': () => ({}),
  'GET /posts/feed': async ({ me }) => { await makePost(me); return {}; },
  // Hashtags (contract section 19): a tagged post of `me`; the shared table has no stream consumer, so postsCount may be 0.
  'GET /tags/{tag}': () => ({ params: { tag: 'Fixture' } }),
  'GET /tags/{tag}/posts': async ({ me }) => { await makePost(me, 'a #fixture post'); return { params: { tag: 'fixture' }, query: { limit: '5' } }; },
  // The directory and the ranking as the stream consumer and the first GET would write them.
  'GET /tags': async () => {
    await db.send(new PutCommand({ TableName: TABLE, Item: { ...keys.tagDirectory('fixture'), type: 'TAG', tag: 'fixture', postsCount: 3 } }));
    return { query: { query: '#fix' } };
  },
  'GET /trends/tags': async () => {
    await db.send(new PutCommand({ TableName: TABLE, Item: { ...keys.trends(), type: 'TRENDS', tags: [{ name: 'fixture', postsCount: 3, authors: 3 }], computedAt: Date.now() } }));
    return {};
  },
  // The shared test table has no stream consumer: the notification is put as the consumer would.
  'GET /notifications': async ({ me, other }) => {
    await addNotification({ kind: 'FOLLOW', recipientId: me.id, actorId: other.id, cause: `FOLLOW#${other.id}` });
    return {};
  },
  'POST /notifications/read': ({ me }) => ({ watch: [keys.notificationState(me.id)] }),
  // Web Push (contract section 20): a local-stage endpoint (http on loopback is accepted there).
  'GET /push/vapid-key': () => ({}),
  'POST /push/subscriptions': () => ({ body: { ...PUSH_SUBSCRIPTION, endpoint: `http://localhost:8090/notify/${uniq('push')}` } }),
  'GET /push/subscriptions': async ({ me }) => {
    await subscribe(me.id, me.sessionId, { endpoint: `http://localhost:8090/notify/${uniq('push')}`, p256dh: PUSH_SUBSCRIPTION.keys.p256dh, auth: PUSH_SUBSCRIPTION.keys.auth, types: ['FOLLOW'] });
    return {};
  },
  'DELETE /push/subscriptions/{id}': async ({ me }) => {
    const s = await subscribe(me.id, me.sessionId, { endpoint: `http://localhost:8090/notify/${uniq('push')}`, p256dh: PUSH_SUBSCRIPTION.keys.p256dh, auth: PUSH_SUBSCRIPTION.keys.auth, types: ['FOLLOW'] });
    return { params: { id: s.id }, watch: [keys.pushSubscription(me.id, s.id)] };
  },
  'GET /posts/user/{identifier}': async ({ other }) => {
    await postOf(other);
    return { params: { identifier: other.username } };
  },
  'GET /posts/{post_id}': async ({ other }) => ({ params: { post_id: await postOf(other) } }),
  'GET /posts/{post_id}/likes': async ({ me, other }) => {
    const postId = await postOf(other);
    await ok(call(likePost, 'POST /posts/like/{post_id}', { params: { post_id: postId }, token: me.token }));
    await ok(call(likePost, 'POST /posts/like/{post_id}', { params: { post_id: postId }, token: (await makeUser()).token }));
    return { params: { post_id: postId } };
  },
  'DELETE /posts/{post_id}': async ({ me }) => {
    const postId = (await makePost(me))._id;
    return { params: { post_id: postId }, watch: [keys.post(postId)], creates: [keys.cleanupJob('post', postId)] };
  },
  'POST /posts/like/{post_id}': async ({ me, other }) => {
    const postId = await postOf(other);
    await ok(call(unlikePost, 'POST /posts/unlike/{post_id}', { params: { post_id: postId }, token: me.token }));
    return { params: { post_id: postId }, creates: [keys.postLike(postId, me.id)], watch: [keys.post(postId)] };
  },
  'POST /posts/unlike/{post_id}': async ({ me, other }) => {
    const postId = await postOf(other);
    await ok(call(likePost, 'POST /posts/like/{post_id}', { params: { post_id: postId }, token: me.token }));
    return { params: { post_id: postId }, watch: [keys.post(postId), keys.postLike(postId, me.id)] };
  },
  'POST /posts/bookmark/{post_id}': async ({ me, other }) => {
    const postId = await postOf(other);
    await ok(call(unbookmarkPost, 'POST /posts/unbookmark/{post_id}', { params: { post_id: postId }, token: me.token }));
    return { params: { post_id: postId }, creates: [keys.bookmark(me.id, postId)] };
  },
  'POST /posts/unbookmark/{post_id}': async ({ me, other }) => {
    const postId = await postOf(other);
    await ok(call(bookmarkPost, 'POST /posts/bookmark/{post_id}', { params: { post_id: postId }, token: me.token }));
    return { params: { post_id: postId }, watch: [keys.bookmark(me.id, postId)] };
  },

  // Comments, on the post of `other`: its counters must not move on a refusal.
  'POST /comments/create/{post_id}': async ({ other }) => {
    const postId = await postOf(other);
    return { params: { post_id: postId }, body: { text: 'a fixture comment' }, watch: [keys.post(postId)] };
  },
  'POST /comments/reply/{comment_id}': async ({ other }) => {
    const { commentId, replyId } = await threadOf(other);
    return { params: { comment_id: commentId }, body: { text: 'a fixture reply', replyTo: replyId }, watch: [keys.post(await postOf(other)), keys.comment(commentId)] };
  },
  'GET /comments/replies/{comment_id}': async ({ other }) => ({ params: { comment_id: await commentOf(other) } }),
  'GET /comments/post/{post_id}': async ({ other }) => {
    await commentOf(other);
    return { params: { post_id: await postOf(other) } };
  },
  'DELETE /comments/{comment_id}': async ({ me, other }) => {
    const postId = await postOf(other);
    const commentId = created(await comment(me, postId, 'to be deleted'))._id;
    return { params: { comment_id: commentId }, watch: [keys.post(postId), keys.comment(commentId)], creates: [keys.cleanupJob('comment', commentId)] };
  },
  'POST /comments/like/{comment_id}': async ({ me, other }) => {
    const commentId = await commentOf(other);
    await ok(unlikeComment(me, commentId));
    return { params: { comment_id: commentId }, creates: [keys.commentLike(commentId, me.id)], watch: [keys.comment(commentId)] };
  },
  'POST /comments/unlike/{comment_id}': async ({ me, other }) => {
    const commentId = await commentOf(other);
    await ok(likeComment(me, commentId));
    return { params: { comment_id: commentId }, watch: [keys.comment(commentId), keys.commentLike(commentId, me.id)] };
  },

  // Editing: a fresh post of `me`, whose caption a refusal must leave as it was.
  'POST /posts/edit/{post_id}': async ({ me }) => {
    const postId = (await makePost(me))._id;
    return { params: { post_id: postId }, body: { caption: 'an edited caption' }, watch: [keys.post(postId)] };
  },
  // The caller's bookmarks, with one in them (so that a page's posts are read too).
  'GET /posts/bookmarks': async ({ me, other }) => {
    const postId = await postOf(other);
    await ok(call(bookmarkPost, 'POST /posts/bookmark/{post_id}', { params: { post_id: postId }, token: me.token }));
    return {};
  },
};

/** A new session of `u` (a login). */
export async function loginAgain(u: TestUser): Promise<{ token: string; refreshToken: string; sessionId: string }> {
  const res = await call(login, 'POST /auth/login', { body: { identifier: u.username, password: u.password } });
  if (res.status !== 200) throw new Error(`fixture login failed: ${res.status} ${res.text}`);
  return { token: res.body.token, refreshToken: res.body.refreshToken, sessionId: String(decodeJwt(res.body.token).sid) };
}

async function ok(res: Promise<CallResult>): Promise<void> {
  const r = await res;
  if (r.status !== 200) throw new Error(`fixture setup failed: ${r.status} ${r.text}`);
}

// One post of each user, and one top-level comment of that user on it with one reply, made once (keyed
// by user id, so every suite and context that names the user shares them).
const posts = new Map<string, Promise<string>>();
const threads = new Map<string, Promise<{ commentId: string; replyId: string }>>();
const postOf = (u: TestUser) => {
  if (!posts.has(u.id)) posts.set(u.id, makePost(u).then((p) => p._id));
  return posts.get(u.id)!;
};
const threadOf = (u: TestUser) => {
  if (!threads.has(u.id)) {
    threads.set(u.id, postOf(u).then(async (postId) => {
      const commentId = created(await comment(u, postId, 'a fixture thread'))._id;
      const replyId = created(await reply(u, commentId, { text: 'a fixture reply' }))._id;
      return { commentId, replyId };
    }));
  }
  return threads.get(u.id)!;
};
const commentOf = async (u: TestUser) => (await threadOf(u)).commentId;
// Third users: one for `me` to block (so that the pair `me`/`other` stays free of blocks),
// one for `me` to follow.
const thirds = new Map<string, Promise<TestUser>>();
const third = (role: string) => (u: TestUser) => {
  if (!thirds.has(`${role}:${u.id}`)) thirds.set(`${role}:${u.id}`, makeUser());
  return thirds.get(`${role}:${u.id}`)!;
};
// Accounts of the two-factor routes, by route and caller: `off`, a secret `pending`, or `on` with
// recovery codes left (`next`: the first one no call was given).
interface TwoFactorAccount { u: TestUser; secret: string; codes: string[]; next: number }
const twoFactorAccounts = new Map<string, Promise<TwoFactorAccount>>();
async function twoFactorAccount(role: string, owner: TestUser, state: 'off' | 'pending' | 'on'): Promise<TwoFactorAccount> {
  const key = `${role}:${owner.id}`;
  const held = await twoFactorAccounts.get(key);
  if (held) {
    const item = await getItem(keys.twoFactor(held.u.id));
    const fits = state === 'off' ? !item?.secret : state === 'pending' ? item?.pendingSecret === held.secret && !item?.secret : !!item?.secret && held.next < held.codes.length;
    if (fits) return held;
  }
  const made = (async () => {
    const u = await makeUser();
    if (state === 'off') return { u, secret: '', codes: [], next: 0 };
    if (state === 'on') {
      const { secret, recoveryCodes } = await withTwoFactor(u);
      return { u, secret, codes: recoveryCodes, next: 0 };
    }
    const setup = await call(twoFactorSetupH, 'POST /auth/2fa/setup', { token: u.token, body: { password: u.password } });
    if (setup.status !== 200) throw new Error(`fixture setup failed: ${setup.status} ${setup.text}`);
    return { u, secret: setup.body.secret as string, codes: [], next: 0 };
  })();
  twoFactorAccounts.set(key, made);
  return made;
}
const strangerOf = third('stranger');
const friendOf = third('friend');

export interface Route {
  key: string;
  method: string;
  path: string;
  name: string;
  handler: Handler;
  auth: boolean;
  /** Honours Idempotency-Key. */
  idempotent: boolean;
  pathParams: string[];
  /** JSON Schema (input side) of the body, when the route takes one. */
  body?: { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  query?: { properties?: Record<string, Record<string, unknown>> };
  valid: Fixture;
}

export const ROUTES: Route[] = routes().filter((r) => isOperation(r.path)).map((r) => {
  const handler = (require(join(ROOT, r.file)) as Record<string, Handler>)[r.exportName]!;
  const spec = handler.spec;
  return {
    key: r.key,
    method: r.method,
    path: r.path,
    name: r.name,
    handler,
    auth: spec.auth ?? true,
    idempotent: !!spec.idempotent,
    pathParams: [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
    body: spec.body ? jsonSchema(spec.body) as Route['body'] : undefined,
    query: spec.query ? jsonSchema(spec.query) as Route['query'] : undefined,
    valid: FIXTURES[r.key] ?? (() => { throw new Error(`tests/support/routes.ts has no fixture for ${r.key}`); }),
  };
});

/** `test.each` rows: [route key, route]. */
export const rows = (pick: (r: Route) => boolean = () => true) => ROUTES.filter(pick).map((r) => [r.key, r] as const);
