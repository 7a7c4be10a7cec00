// Contract section 9, end to end: one scenario under one X-Trace-Id (register, edit, post,
// comment, reply, like, follow, bookmark, block, unblock, unfollow, unlike, deletions) reads back as
// one chain in order of simTimestamp, one INFO record per mutation with its actor, its path
// parameters and body, and a stateDiff whose before/after hold exactly the changed fields;
// no secret anywhere.
import { call } from '../support/invoke';
import { makeUser, uniq } from '../support/factories';
import { handler as register } from '../../functions/auth/register';
import { handler as edit } from '../../functions/users/edit';
import { handler as follow } from '../../functions/users/follow';
import { handler as unfollow } from '../../functions/users/unfollow';
import { handler as block } from '../../functions/users/block';
import { handler as unblock } from '../../functions/users/unblock';
import { handler as createPost } from '../../functions/posts/create';
import { handler as likePost } from '../../functions/posts/like';
import { handler as unlikePost } from '../../functions/posts/unlike';
import { handler as bookmark } from '../../functions/posts/bookmark';
import { handler as unbookmark } from '../../functions/posts/unbookmark';
import { handler as deletePost } from '../../functions/posts/delete';
import { handler as createComment } from '../../functions/comments/create';
import { handler as reply } from '../../functions/comments/reply';
import { handler as likeComment } from '../../functions/comments/like';
import { handler as unlikeComment } from '../../functions/comments/unlike';
import { handler as deleteComment } from '../../functions/comments/delete';
import { handler as traceLogs } from '../../functions/logs/trace';
import { signToken } from '../../lib/auth/tokens';

interface LogRecord {
  level: string;
  simTimestamp: number;
  stepId: string;
  action: { type: string; description: string };
  actor: { type: string; id: string };
  payload: { params?: Record<string, string>; body?: Record<string, unknown> };
  stateDiff: { before: Record<string, unknown>; after: Record<string, unknown>; changes: string[] };
}

it('records a whole scenario under one trace, in order, with exact diffs and no secret', async () => {
  const trace = uniq('story');
  const friend = await makeUser();
  let step = 0;
  const h = () => ({ 'X-Trace-Id': trace, 'X-Scenario-Id': 'story', 'X-Step-Id': String(++step), 'X-Sim-Timestamp': String(1_000 + step) });
  const ok = async (p: Promise<{ status: number; text: string; body: any }>, status = 200) => { // eslint-disable-line @typescript-eslint/no-explicit-any
    const res = await p;
    expect([res.status, res.text]).toEqual([status, res.text]);
    return res.body;
  };

  const username = uniq('story');
  const password = 'story secret password';
  const reg = await ok(call(register, 'POST /auth/register', { body: { name: 'Story Teller', username, email: `${username}@example.test`, password }, headers: h() }), 201);
  const token = reg.token as string;
  const me = reg.user._id as string;
  await ok(call(edit, 'POST /users/profile/edit', { token, body: { bio: 'once upon a time' }, headers: h() }));
  const post = (await ok(call(createPost, 'POST /posts/create', { token, body: { image: 'https://cdn.example.test/1.jpg', caption: 'hello' }, headers: h() }), 201)).post;
  const comment = (await ok(call(createComment, 'POST /comments/create/{post_id}', { token, params: { post_id: post._id }, body: { text: 'first' }, headers: h() }), 201)).comment;
  const answer = (await ok(call(reply, 'POST /comments/reply/{comment_id}', { token, params: { comment_id: comment._id }, body: { text: 'second' }, headers: h() }), 201)).data;
  await ok(call(likePost, 'POST /posts/like/{post_id}', { token, params: { post_id: post._id }, headers: h() }));
  await ok(call(likeComment, 'POST /comments/like/{comment_id}', { token, params: { comment_id: comment._id }, headers: h() }));
  await ok(call(bookmark, 'POST /posts/bookmark/{post_id}', { token, params: { post_id: post._id }, headers: h() }));
  await ok(call(follow, 'POST /users/follow/{identifier}', { token, params: { identifier: friend.username }, headers: h() }));
  await ok(call(unfollow, 'POST /users/unfollow/{identifier}', { token, params: { identifier: friend.id }, headers: h() }));
  await ok(call(block, 'POST /users/block/{identifier}', { token, params: { identifier: friend.id }, headers: h() }));
  await ok(call(unblock, 'POST /users/unblock/{identifier}', { token, params: { identifier: friend.id }, headers: h() }));
  await ok(call(unlikeComment, 'POST /comments/unlike/{comment_id}', { token, params: { comment_id: comment._id }, headers: h() }));
  await ok(call(unbookmark, 'POST /posts/unbookmark/{post_id}', { token, params: { post_id: post._id }, headers: h() }));
  await ok(call(unlikePost, 'POST /posts/unlike/{post_id}', { token, params: { post_id: post._id }, headers: h() }));
  await ok(call(deleteComment, 'DELETE /comments/{comment_id}', { token, params: { comment_id: answer._id }, headers: h() }));
  await ok(call(deletePost, 'DELETE /posts/{post_id}', { token, params: { post_id: post._id }, headers: h() }));

  const res = await call(traceLogs, 'GET /logs/trace/{traceId}', { token, params: { traceId: trace } });
  expect(res.status).toBe(200);
  const logs = res.body.data.logs as LogRecord[];
  expect(res.body.data.count).toBe(step);
  expect(logs.map((l) => l.stepId)).toEqual(Array.from({ length: step }, (_, i) => String(i + 1)));
  expect(logs.map((l) => l.action.type)).toEqual([
    'USER_REGISTERED', 'PROFILE_UPDATED', 'POST_CREATED', 'COMMENT_CREATED', 'REPLY_CREATED', 'POST_LIKED', 'COMMENT_LIKED',
    'POST_BOOKMARKED', 'USER_FOLLOWED', 'USER_UNFOLLOWED', 'USER_BLOCKED', 'USER_UNBLOCKED', 'COMMENT_UNLIKED',
    'POST_UNBOOKMARKED', 'POST_UNLIKED', 'REPLY_DELETED', 'POST_DELETED',
  ].map((t) => expect.stringMatching(t === 'REPLY_DELETED' ? /^(REPLY|COMMENT)_DELETED$/ : new RegExp(`^${t}$`))));

  for (const l of logs) {
    expect(l.level).toBe('INFO');
    expect(l.actor).toEqual({ type: 'user', id: me });
    expect(l.action.type).toMatch(/^[A-Z]+(_[A-Z]+)+$/);
    expect(l.action.description.length).toBeGreaterThan(5);
    // before/after hold just the changed fields.
    expect(l.stateDiff.changes.length).toBeGreaterThan(0);
    for (const side of [l.stateDiff.before, l.stateDiff.after]) {
      for (const k of Object.keys(side)) expect(l.stateDiff.changes).toContain(k);
    }
  }
  const byType = (t: string) => logs.find((l) => l.action.type === t)!;
  // Creations: before is {}; deletions: after is {}.
  for (const t of ['USER_REGISTERED', 'POST_CREATED', 'COMMENT_CREATED', 'REPLY_CREATED']) expect(byType(t).stateDiff.before).toEqual({});
  for (const t of ['POST_DELETED']) expect(byType(t).stateDiff.after).toEqual({});
  expect(byType('PROFILE_UPDATED').stateDiff).toMatchObject({ before: { bio: '' }, after: { bio: 'once upon a time' } });
  expect(byType('POST_CREATED').stateDiff.after).toMatchObject({ caption: 'hello' });
  expect(byType('POST_CREATED').payload.body).toMatchObject({ caption: 'hello' });
  expect(byType('COMMENT_CREATED').payload.params).toEqual({ post_id: post._id });
  expect(byType('POST_LIKED').payload.params).toEqual({ post_id: post._id });
  expect(byType('USER_FOLLOWED').payload.params).toEqual({ identifier: friend.username });

  const text = JSON.stringify(res.body);
  expect(text).not.toContain(password);
  expect(text).not.toContain(token);
  expect(text).not.toMatch(/scrypt\$|passwordHash/);

  // The friend sees none of it; an operator token sees all of it.
  expect((await call(traceLogs, 'GET /logs/trace/{traceId}', { token: friend.token, params: { traceId: trace } })).status).toBe(404);
  const all = await call(traceLogs, 'GET /logs/trace/{traceId}', { token: await signToken({ userId: friend.id, sessionId: friend.sessionId, epoch: 0 }, ['logs:read']), params: { traceId: trace } });
  expect(all.body.data.count).toBe(step);
});
