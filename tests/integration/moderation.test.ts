// Reports and moderation (contract section 15) through the real handlers: one open report per
// target, the queue oldest first, the scope, and the three actions (dismiss, remove, suspend
// and unsuspend: the suspended author's post gone from a third user's feed, explore, likes
// list and search at once, and back on unsuspend).
import '../support/own-stream-table';
import { call } from '../support/invoke';
import { makePost, users } from '../support/posts';
import { block, follow, unblock, unfollow } from '../support/graph';
import { getItem } from '../support/db';
import { comment, comments, created, like, traceRecords } from '../support/comment-api';
import type { TestUser } from '../support/factories';
import * as keys from '../../lib/keys';
import { signToken } from '../../lib/auth/tokens';
import { handler as reportH } from '../../functions/reports/create';
import { handler as queueH } from '../../functions/moderation/reports';
import { handler as resolveH } from '../../functions/moderation/resolve';
import { handler as unsuspendH } from '../../functions/moderation/unsuspend';
import { handler as getPost } from '../../functions/posts/get';
import { handler as likeH } from '../../functions/posts/like';
import { handler as likesH } from '../../functions/posts/likes';
import { handler as exploreH } from '../../functions/posts/explore';
import { handler as feedH } from '../../functions/posts/feed';
import { handler as searchH } from '../../functions/users/search';
import { handler as profile } from '../../functions/users/profile';
import { handler as me } from '../../functions/users/me';
import { handler as blockedH } from '../../functions/users/blocked';
import { handler as deletePostH } from '../../functions/posts/delete';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { issue, newSession } from '../../lib/auth/sessions';
import { db, TABLE } from '../../lib/db/client';
import { handler as loginH } from '../../functions/auth/login';
import { handler as editProfileH } from '../../functions/users/edit';
import { handler as editPostH } from '../../functions/posts/edit';
import { eventually, startTestStream, type TestStream } from '../support/stream';

// The home feed is written by the change stream's fan-out.
let stream: TestStream;
beforeAll(() => { stream = startTestStream(); });
afterAll(() => stream.poller.stop());
afterEach(() => expect(stream.deadLetters).toEqual([]));

const report = (u: TestUser, targetType: string, targetId: string, reason = 'spam', note?: string) =>
  call(reportH, 'POST /reports', { token: u.token, body: { targetType, targetId, reason, ...(note ? { note } : {}) } });
const moderatorToken = (u: TestUser) => signToken({ userId: u.id, sessionId: u.sessionId, epoch: 0 }, ['moderate']);
const queue = async (mod: string, query: Record<string, string> = {}) => call(queueH, 'GET /moderation/reports', { token: mod, query });
const resolve = (mod: string, reportId: string, action: string, note?: string) =>
  call(resolveH, 'POST /moderation/reports/{report_id}/resolve', { token: mod, params: { report_id: reportId }, body: { action, ...(note ? { note } : {}) } });
const ids = (xs: { _id: string }[]) => xs.map((x) => x._id);

describe('reports', () => {
  it('one open report per target: 201, then 200 with one more reporter, the same reporter again changes nothing; a new one after resolution', async () => {
    const [author, a, b, mod] = await users(4);
    const post = await makePost(author);
    const first = await report(a, 'post', post._id, 'spam', 'buy now');
    expect(first.status).toBe(201);
    expect(first.body.report).toEqual({ _id: expect.any(String), targetType: 'post', targetId: post._id, reason: 'spam', status: 'open', createdAt: expect.any(String) });
    const second = await report(b, 'post', post._id, 'hate');
    expect(second.status).toBe(200);
    // Each reporter's answer carries its own reason: none learns another's reason or note.
    expect(second.body.report).toEqual({ ...first.body.report, reason: 'hate' });
    expect(second.text).not.toContain('buy now');
    expect((await report(b, 'post', post._id, 'other')).body.report.reason).toBe('hate');
    const repeat = await report(a, 'post', post._id, 'violence');
    expect(repeat.status).toBe(200);
    expect(repeat.body.report).toEqual(first.body.report);
    expect(await getItem(keys.report(first.body.report._id))).toMatchObject({ reporters: 2 });
    const token = await moderatorToken(mod);
    const open = await queue(token);
    const mine = open.body.reports.find((r: { _id: string }) => r._id === first.body.report._id);
    expect(mine).toMatchObject({ reporters: 2, status: 'open', target: { _id: post._id, caption: post.caption } });
    const done = await resolve(token, first.body.report._id, 'dismiss', 'not spam');
    expect(done.status).toBe(200);
    expect(done.body.report).toMatchObject({ status: 'resolved', action: 'dismiss', resolvedBy: mod.id, resolvedAt: expect.any(String) });
    expect((await resolve(token, first.body.report._id, 'dismiss')).status).toBe(409);
    expect((await call(getPost, 'GET /posts/{post_id}', { token: a.token, params: { post_id: post._id } })).status).toBe(200);
    const again = await report(a, 'post', post._id);
    expect(again.status).toBe(201);
    expect(again.body.report._id).not.toBe(first.body.report._id);
  });

  it('shows each target in the queue with its embedded arrays as the other routes show them: a post\'s and a comment\'s likes, a user\'s followers and following', async () => {
    const [author, a, b, mod] = await users(4);
    const post = await makePost(author);
    const c = created(await comment(author, post._id, 'a comment worth a like'));
    for (const u of [a, b]) expect((await call(likeH, 'POST /posts/like/{post_id}', { token: u.token, params: { post_id: post._id } })).status).toBe(200);
    expect((await like(b, c._id)).status).toBe(200);
    await follow(a, author);
    await follow(author, b);
    const reported = [await report(a, 'post', post._id), await report(a, 'comment', c._id), await report(b, 'user', author.id)];
    const token = await moderatorToken(mod);
    const asListed = async () => {
      const open = (await queue(token, { limit: '50' })).body.reports as { _id: string; target: Record<string, unknown> }[];
      return reported.map((r) => open.find((x) => x._id === r.body.report._id)!.target);
    };
    const [postTarget, commentTarget, userTarget] = await asListed();
    expect(postTarget!.likes).toEqual([b.id, a.id]);
    expect(postTarget!.likes).toEqual((await call(getPost, 'GET /posts/{post_id}', { token, params: { post_id: post._id } })).body.post.likes);
    expect(commentTarget!.likes).toEqual([b.id]);
    expect(commentTarget!.likes).toEqual((await comments(mod, post._id)).body.data.comments.find((x: { _id: string }) => x._id === c._id).likes);
    expect(userTarget).toMatchObject({ _id: author.id, followers: [a.id], following: [b.id] });
    // Once the stream has written the recent ids beside them, the same again from there.
    await eventually(() => getItem(keys.postLikers(post._id)), (item) => item?.likesCount === 2);
    await eventually(() => getItem(keys.commentLikers(c._id)), (item) => item?.likesCount === 1);
    await eventually(() => getItem(keys.user(author.id)), (item) => item?.recentV !== undefined && item.recentV === (item.edgesV ?? 0));
    expect((await asListed()).map((t) => [t!.likes, t!.followers, t!.following])).toEqual([[[b.id, a.id], undefined, undefined], [[b.id], undefined, undefined], [undefined, [a.id], [b.id]]]);
    // The users hidden from the moderator leave the arrays, as on every GET.
    await block(mod, b);
    expect((await asListed()).map((t) => [t!.likes, t!.followers, t!.following])).toEqual([[[a.id], undefined, undefined], [[], undefined, undefined], [undefined, [a.id], []]]);
  });

  it('refuses reporting oneself or one\'s own content (400 SELF_ACTION), and a missing or hidden target (404); without the scope the moderation routes answer 403', async () => {
    const [author, a] = await users(2);
    const post = await makePost(author);
    expect((await report(author, 'post', post._id)).body.code).toBe('SELF_ACTION');
    expect((await report(a, 'user', a.id)).body.code).toBe('SELF_ACTION');
    expect((await report(a, 'post', '01ARZ3NDEKTSV4RRFFQ69G5FAV')).status).toBe(404);
    await block(author, a);
    expect((await report(a, 'post', post._id)).status).toBe(404);
    expect((await report(a, 'user', author.id)).status).toBe(404);
    expect((await queue(a.token)).status).toBe(403);
    expect((await queue(a.token)).body.code).toBe('FORBIDDEN');
    expect((await call(unsuspendH, 'POST /moderation/users/{user_id}/unsuspend', { token: a.token, params: { user_id: author.id } })).status).toBe(403);
  });

  it('without the scope, a moderation route is 403 whatever the request carries: the token and its scope come before the input', async () => {
    const [a, mod] = await users(2);
    const token = await moderatorToken(mod);
    const malformed = [
      (t?: string) => call(queueH, 'GET /moderation/reports', { token: t, query: { limit: '0' } }),
      (t?: string) => call(resolveH, 'POST /moderation/reports/{report_id}/resolve', { token: t, params: { report_id: 'notanid' }, body: {} }),
      (t?: string) => call(resolveH, 'POST /moderation/reports/{report_id}/resolve', { token: t, params: { report_id: '01ARZ3NDEKTSV4RRFFQ69G5FAV' }, body: { action: 'dismiss', x: 1 } }),
      (t?: string) => call(unsuspendH, 'POST /moderation/users/{user_id}/unsuspend', { token: t, params: { user_id: a.id }, rawBody: '[]', headers: { 'content-type': 'application/json' } }),
    ];
    for (const send of malformed) {
      const plain = await send(a.token);
      expect({ status: plain.status, code: plain.body.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
      const none = await send(undefined);
      expect({ status: none.status, code: none.body.code }).toEqual({ status: 401, code: 'UNAUTHORIZED' });
      // A moderator's malformed request is told what is wrong with it.
      const moderator = await send(token);
      expect({ status: moderator.status, code: moderator.body.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    }
  });

  it('the queue is oldest first, paged by cursor', async () => {
    const [author, a, mod] = await users(3);
    const posts = [await makePost(author), await makePost(author), await makePost(author)];
    const filed: string[] = [];
    for (const p of posts) filed.push((await report(a, 'post', p._id)).body.report._id);
    const token = await moderatorToken(mod);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await queue(token, { limit: '1', ...(cursor ? { cursor } : {}) });
      expect(page.status).toBe(200);
      seen.push(...ids(page.body.reports));
      cursor = page.body.pagination.nextCursor ?? undefined;
    } while (cursor);
    expect(seen.filter((id) => filed.includes(id))).toEqual(filed);
    // A cursor is a position: one past every report is an empty last page, one before them all
    // is the start. Its digits are a date (once read as milliseconds, and past Date's range a 500).
    const past = await queue(token, { cursor: '99991231235959999.01ARZ3NDEKTSV4RRFFQ69G5FAV' });
    expect(past.status).toBe(200);
    expect(past.body).toMatchObject({ reports: [], pagination: { hasMore: false, nextCursor: null } });
    const fromStart = await queue(token, { cursor: '20000101000000000.00000000000000000000000000' });
    expect(fromStart.status).toBe(200);
    expect(ids(fromStart.body.reports)).toEqual(ids((await queue(token)).body.reports));
    for (const cursor of ['1732000000000.01ARZ3NDEKTSV4RRFFQ69G5FAV', '99999999999999999.01ARZ3NDEKTSV4RRFFQ69G5FAV', '08640000000000001.01ARZ3NDEKTSV4RRFFQ69G5FAV']) {
      const bad = await queue(token, { cursor });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('VALIDATION_ERROR');
    }
  });

  it('remove deletes a comment as its author would', async () => {
    const [author, commenter, a, mod] = await users(4);
    const post = await makePost(author);
    const c = created(await comment(commenter, post._id, 'nasty'));
    const r = await report(a, 'comment', c._id, 'harassment');
    expect(r.status).toBe(201);
    const done = await resolve(await moderatorToken(mod), r.body.report._id, 'remove');
    expect(done.body.report).toMatchObject({ action: 'remove' });
    expect(ids((await comments(a, post._id)).body.data.comments)).toEqual([]);
    expect(await getItem(keys.post(post._id))).toMatchObject({ commentsCount: 0 });
    const queued = await queue(await moderatorToken(mod), { status: 'resolved', limit: '50' });
    expect(queued.body.reports.find((x: { _id: string }) => x._id === r.body.report._id)).toMatchObject({ target: null, reporters: 1 });
  });

  it('resolutions racing on one report: exactly one applies, the others get 409 REPORT_RESOLVED, and a refused remove deletes nothing', async () => {
    const [author, commenter, a, mod] = await users(4);
    const token = await moderatorToken(mod);
    const post = await makePost(author);
    // Each round: a target reported, then two resolutions of its report at once. A remove that
    // lost used to delete its target anyway, outside the resolution's transaction.
    const targets: { type: 'post' | 'comment'; id: string; exists: () => Promise<boolean> }[] = [];
    for (let i = 0; i < 3; i++) {
      const p = await makePost(author);
      targets.push({ type: 'post', id: p._id, exists: async () => !!(await getItem(keys.post(p._id))) });
      const c = created(await comment(commenter, post._id, `nasty ${i}`));
      targets.push({ type: 'comment', id: c._id, exists: async () => !!(await getItem(keys.comment(c._id))) });
    }
    for (const [i, t] of targets.entries()) {
      const r = await report(a, t.type, t.id, 'spam');
      expect(r.status).toBe(201);
      const actions = i % 3 === 2 ? ['remove', 'remove'] : i % 2 ? ['dismiss', 'remove'] : ['remove', 'dismiss'];
      const answers = await Promise.all(actions.map((action) => resolve(token, r.body.report._id, action)));
      const won = answers.flatMap((res, k) => (res.status === 200 ? [actions[k]!] : []));
      expect({ target: t, won: won.length }).toEqual({ target: t, won: 1 });
      for (const res of answers.filter((x) => x.status !== 200)) expect({ status: res.status, code: res.body.code }).toEqual({ status: 409, code: 'REPORT_RESOLVED' });
      expect(await getItem(keys.report(r.body.report._id))).toMatchObject({ status: 'resolved', action: won[0] });
      expect({ target: t, exists: await t.exists() }).toEqual({ target: t, exists: won[0] === 'dismiss' });
    }
    // The post's comments count what is left: the three comments' removals, no more, no less.
    const left = await Promise.all(targets.filter((t) => t.type === 'comment').map((t) => t.exists()));
    expect(await getItem(keys.post(post._id))).toMatchObject({ commentsCount: left.filter(Boolean).length });
  });

  it('suspend: sessions end at once, the author and its post vanish from a third user\'s feed, explore, likes list and search at once, and come back on unsuspend', async () => {
    const [author, fan, third, mod, blocker, late] = await users(6);
    await follow(third, author);
    await block(blocker, author);
    const post = await makePost(author);
    expect((await call(likeH, 'POST /posts/like/{post_id}', { token: author.token, params: { post_id: post._id } })).status).toBe(200);
    const other = await makePost(fan);
    expect((await call(likeH, 'POST /posts/like/{post_id}', { token: author.token, params: { post_id: other._id } })).status).toBe(200);
    const inFeed = await eventually(() => call(feedH, 'GET /posts/feed', { token: third.token }), (res) => ids(res.body.posts).includes(post._id), 15_000);
    expect(ids(inFeed.body.posts)).toContain(post._id);
    const r = await report(fan, 'post', post._id, 'violence');
    const token = await moderatorToken(mod);
    const suspended = await call(resolveH, 'POST /moderation/reports/{report_id}/resolve', {
      token, params: { report_id: r.body.report._id }, body: { action: 'suspend' }, headers: { 'X-Trace-Id': `mod-${r.body.report._id}` },
    });
    expect({ status: suspended.status, text: suspended.text }).toMatchObject({ status: 200 });
    expect(suspended.body.report).toMatchObject({ action: 'suspend' });
    // The action's trace records, the moderator as actor.
    const records = (await traceRecords(`mod-${r.body.report._id}`)) as { action: { type: string }; actor: { id: string } }[];
    expect(records.map((x) => [x.action.type, x.actor.id]).sort()).toEqual([['REPORT_RESOLVED', mod.id], ['USER_SUSPENDED', mod.id]]);

    expect((await call(me, 'GET /users/me', { token: author.token })).status).toBe(401);
    const login = await call(loginH, 'POST /auth/login', { body: { identifier: author.username, password: author.password } });
    expect(login.status).toBe(403);
    // A session begun since by other means than a login (as the local token script could) is
    // refused too: the suspension is checked on every request, not only at the login.
    const { item: fresh, refreshToken } = newSession((await getItem(keys.user(author.id))) as { id: string; sessionEpoch?: number }, 'test');
    await db.send(new PutCommand({ TableName: TABLE, Item: fresh }));
    const { token: freshToken } = await issue(fresh, refreshToken);
    const refused = await call(me, 'GET /users/me', { token: freshToken });
    expect({ status: refused.status, message: refused.body.message }).toEqual({ status: 401, message: 'This account no longer exists or is suspended.' });
    expect((await call(likeH, 'POST /posts/like/{post_id}', { token: freshToken, params: { post_id: other._id } })).status).toBe(401);
    const visible = async () => ({
      post: (await call(getPost, 'GET /posts/{post_id}', { token: third.token, params: { post_id: post._id } })).status,
      profile: (await call(profile, 'GET /users/{identifier}', { token: third.token, params: { identifier: author.username } })).status,
      feed: ids((await call(feedH, 'GET /posts/feed', { token: third.token })).body.posts).includes(post._id),
      explore: ids((await call(exploreH, 'GET /posts/explore', { token: fan.token, query: { limit: '50' } })).body.posts).includes(post._id),
      likes: ids((await call(likesH, 'GET /posts/{post_id}/likes', { token: third.token, params: { post_id: other._id } })).body.likes).includes(author.id),
      search: ids((await call(searchH, 'GET /users/search', { token: third.token, query: { query: author.username } })).body.users).includes(author.id),
      // Left out of its blocker's own list too, and of its total and blocked_users (section 15).
      blocked: await call(blockedH, 'GET /users/blocked', { token: blocker.token }).then((res) => ({ ids: ids(res.body.data), count: res.body.count })),
      blockedUsers: (await call(me, 'GET /users/me', { token: blocker.token })).body.user.blocked_users,
      // Answers that are not GETs (lib/http scrubs only those): the own object of a login and of
      // a profile edit, and the likes of a post edit.
      loginFollowing: (await call(loginH, 'POST /auth/login', { body: { identifier: third.username, password: third.password } })).body.user.following.includes(author.id),
      editFollowing: (await call(editProfileH, 'POST /users/profile/edit', { token: third.token, body: { bio: 'a bio' } })).body.user.following.includes(author.id),
      editLikes: (await call(editPostH, 'POST /posts/edit/{post_id}', { token: fan.token, params: { post_id: other._id }, body: { caption: 'edited' } })).body.post.likes.includes(author.id),
    });
    expect(await visible()).toEqual({
      post: 404, profile: 404, feed: false, explore: false, likes: false, search: false, blocked: { ids: [], count: 0 }, blockedUsers: [],
      loginFollowing: false, editFollowing: false, editLikes: false,
    });
    // Nor can those who follow or block it undo that now: 404, and both stay (checked after the
    // unsuspension below: third's feed and blocker's list have them back).
    for (const res of [await unfollow(third, author), await unblock(blocker, author)]) {
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
    }
    // Nobody can block it now, as nobody can follow it: it does not exist to them.
    const lateBlock = await block(late, author);
    expect({ status: lateBlock.status, code: lateBlock.body.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect(await getItem(keys.block(late.id, author.id))).toBeUndefined();
    expect(await getItem(keys.user(late.id))).toMatchObject({ blockedCount: 0 });
    // The username stays taken.
    expect(await getItem(keys.username(author.username))).toMatchObject({ userId: author.id });

    const lifted = await call(unsuspendH, 'POST /moderation/users/{user_id}/unsuspend', { token, params: { user_id: author.id } });
    expect(lifted.status).toBe(200);
    expect(await visible()).toEqual({
      post: 200, profile: 200, feed: true, explore: true, likes: true, search: true, blocked: { ids: [author.id], count: 1 }, blockedUsers: [author.id],
      loginFollowing: true, editFollowing: true, editLikes: true,
    });
    expect((await call(loginH, 'POST /auth/login', { body: { identifier: author.username, password: author.password } })).status).toBe(200);
  });

  it('suspend reaches the owner of a post deleted since it was reported; a report that does not say whose it was answers 409 OWNER_UNKNOWN and stays open', async () => {
    const [author, fan, mod] = await users(3);
    const token = await moderatorToken(mod);
    const gone = async () => {
      const post = await makePost(author);
      const r = await report(fan, 'post', post._id, 'harassment');
      expect((await call(deletePostH, 'DELETE /posts/{post_id}', { token: author.token, params: { post_id: post._id } })).status).toBe(200);
      return r.body.report._id as string;
    };
    // Filed before reports kept their target's owner: nobody to suspend, and nothing changes.
    const old = await gone();
    await db.send(new UpdateCommand({ TableName: TABLE, Key: keys.report(old), UpdateExpression: 'REMOVE ownerId' }));
    const refused = await resolve(token, old, 'suspend');
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('OWNER_UNKNOWN');
    expect(await getItem(keys.report(old))).toMatchObject({ status: 'open' });
    expect((await call(me, 'GET /users/me', { token: author.token })).status).toBe(200);
    // The report names the owner: the suspend reaches it though the post is gone.
    const done = await resolve(token, await gone(), 'suspend');
    expect(done.status).toBe(200);
    expect(done.body.report).toMatchObject({ status: 'resolved', action: 'suspend' });
    expect((await call(me, 'GET /users/me', { token: author.token })).status).toBe(401);
    expect(await getItem(keys.user(author.id))).toMatchObject({ suspendedAt: expect.any(String) });
    // The old report can now be dismissed.
    expect((await resolve(token, old, 'dismiss')).status).toBe(200);
  });
});
