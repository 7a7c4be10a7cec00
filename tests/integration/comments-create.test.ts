import { makeUser, makeUsers } from '../support/factories';
import { makePost, dropPost } from '../support/comment-fixtures';
import { comment, reply, created, postItem, commentItem, gsi1, traceRecords } from '../support/comment-api';
import { getItem } from '../support/db';
import { call } from '../support/invoke';
import { handler } from '../../functions/comments/create';
import * as keys from '../../lib/keys';
import { newId } from '../../lib/ids';

describe('POST /comments/create/{post_id}', () => {
  it('creates a top-level comment, counts it on the post and records it', async () => {
    const [author, commenter] = await makeUsers(2);
    const post = await makePost(author!);
    const res = await comment(commenter!, post.id, '  Nice shot 📷  ', { headers: { 'X-Trace-Id': `t-${post.id}` } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      message: 'Comment created successfully',
      comment: {
        _id: expect.any(String), text: 'Nice shot 📷', author: commenter!.id, post: post.id,
        parentComment: null, replyTo: null, mentions: [], likes: [], likesCount: 0, isLiked: false, repliesCount: 0,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), updatedAt: res.body.comment.createdAt,
      },
    });
    const stored = await commentItem(res.body.comment._id);
    expect(stored).toMatchObject({
      type: 'COMMENT', id: res.body.comment._id, text: 'Nice shot 📷', author: commenter!.id, post: post.id,
      parentComment: null, replyTo: null, repliesCount: 0, likesCount: 0,
      GSI1PK: keys.commentsOf(post.id), GSI1SK: res.body.comment.createdAt,
    });
    const p = await postItem(post.id);
    expect(p).toMatchObject({ commentsCount: 1, lastCommentAt: res.body.comment.createdAt });
    const logs = await traceRecords(`t-${post.id}`);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      level: 'INFO', action: { type: 'COMMENT_CREATED' }, actor: { type: 'user', id: commenter!.id },
      payload: { params: { post_id: post.id }, body: { text: 'Nice shot 📷' } },
      stateDiff: { before: {}, after: { _id: res.body.comment._id, text: 'Nice shot 📷', createdAt: res.body.comment.createdAt } },
    });
    expect((logs[0] as { stateDiff: { after: object } }).stateDiff.after).not.toHaveProperty('id');
  });

  it('counts text in code points: 2200 emoji pass, 2201 characters and blank text are refused', async () => {
    const [author, commenter] = await makeUsers(2);
    const post = await makePost(author!);
    expect((await comment(commenter!, post.id, '😀'.repeat(2200))).status).toBe(201);
    for (const text of ['a'.repeat(2201), '   ', '']) {
      const res = await comment(commenter!, post.id, text);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.details.map((d: { path: string }) => d.path)).toEqual(['text']);
    }
    expect((await postItem(post.id))!.commentsCount).toBe(1);
  });

  it('refuses unknown fields, a missing post (404) and a malformed id (400), changing nothing', async () => {
    const [author, commenter] = await makeUsers(2);
    const post = await makePost(author!);
    created(await comment(commenter!, post.id, 'the one that counts'));
    const extra = await call(handler, 'POST /comments/create/{post_id}', {
      params: { post_id: post.id }, body: { text: 'hi', parentComment: 'x' }, token: commenter!.token,
    });
    expect(extra.status).toBe(400);
    expect(extra.body.details).toEqual([{ path: 'parentComment', message: 'is not a known field' }]);
    const missing = await comment(commenter!, newId(), 'hello');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('NOT_FOUND');
    expect((await comment(commenter!, 'not-an-id', 'hello')).status).toBe(400);
    expect((await postItem(post.id))!.commentsCount).toBe(1);
    expect(await gsi1(keys.commentsOf(post.id))).toHaveLength(1);
  });

  it('a deleted post takes no comments', async () => {
    const author = await makeUser();
    const post = await makePost(author);
    await dropPost(author, post.id);
    expect((await comment(author, post.id, 'hello')).status).toBe(404);
    expect(await gsi1(keys.commentsOf(post.id))).toHaveLength(0);
  });

  it('races: 20 comments at once get 20 distinct createdAt and commentsCount 20', async () => {
    const users = await makeUsers(4);
    const post = await makePost(users[0]!);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => comment(users[i % 4]!, post.id, `c${i}`)));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    const stamps = results.map((r) => r.body.comment.createdAt);
    expect(new Set(stamps).size).toBe(20);
    const items = await gsi1(keys.commentsOf(post.id));
    expect(items).toHaveLength(20);
    const p = await postItem(post.id);
    expect(p!.commentsCount).toBe(20);
    expect(p!.lastCommentAt).toBe([...stamps].sort().pop());
  });

  it('idempotency: 10 concurrent requests with one key create one comment; the others get its answer or 409', async () => {
    const [author, commenter] = await makeUsers(2);
    const post = await makePost(author!);
    const headers = { 'Idempotency-Key': `key-${post.id}` };
    const results = await Promise.all(Array.from({ length: 10 }, () => comment(commenter!, post.id, 'once', { headers })));
    const done = results.filter((r) => r.status === 201);
    expect(done.length).toBeGreaterThanOrEqual(1);
    expect(results.filter((r) => r.status !== 201).every((r) => r.status === 409 && r.body.code === 'IDEMPOTENCY_KEY_IN_USE')).toBe(true);
    const ids = new Set(done.map((r) => r.body.comment._id));
    expect(ids.size).toBe(1);
    expect(done.every((r) => JSON.stringify(r.body) === JSON.stringify(done[0]!.body))).toBe(true);
    expect(await gsi1(keys.commentsOf(post.id))).toHaveLength(1);
    expect((await postItem(post.id))!.commentsCount).toBe(1);
    const again = await comment(commenter!, post.id, 'once', { headers });
    expect(again.body).toEqual(done[0]!.body);
    // Another user's same key is another request.
    const other = await makeUser();
    expect(created(await comment(other, post.id, 'once', { headers }))._id).not.toBe([...ids][0]);
    expect((await postItem(post.id))!.commentsCount).toBe(2);
  });
});

describe('POST /comments/reply/{comment_id}', () => {
  it('replies to a top-level comment: parentComment and replyTo are the comment; counters move', async () => {
    const [author, a, b] = await makeUsers(3);
    const post = await makePost(author!);
    const top = created(await comment(a!, post.id, 'top'));
    const res = await reply(b!, top._id, { text: ' answer ' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      message: 'Reply created successfully',
      data: {
        _id: expect.any(String), text: 'answer', author: b!.id, post: post.id, parentComment: top._id, replyTo: top._id, mentions: [],
        likes: [], likesCount: 0, isLiked: false, repliesCount: 0, createdAt: expect.any(String), updatedAt: res.body.data.createdAt,
      },
    });
    expect(await commentItem(res.body.data._id)).toMatchObject({ GSI1PK: keys.repliesOf(top._id), GSI1SK: res.body.data.createdAt });
    expect(await commentItem(top._id)).toMatchObject({ repliesCount: 1, lastReplyAt: res.body.data.createdAt });
    expect((await postItem(post.id))!.commentsCount).toBe(2);
  });

  it('names a reply of the same thread in replyTo', async () => {
    const [author, a, b] = await makeUsers(3);
    const post = await makePost(author!);
    const top = created(await comment(a!, post.id, 'top'));
    const first = created(await reply(b!, top._id, { text: 'first' }));
    const second = await reply(a!, top._id, { text: 'to first', replyTo: first._id.toLowerCase() });
    expect(second.status).toBe(201);
    expect(second.body.data).toMatchObject({ parentComment: top._id, replyTo: first._id });
  });

  it('REPLY_DEPTH_EXCEEDED when replying to a reply; nothing changes', async () => {
    const [author, a] = await makeUsers(2);
    const post = await makePost(author!);
    const top = created(await comment(a!, post.id, 'top'));
    const r = created(await reply(a!, top._id, { text: 'r' }));
    const res = await reply(a!, r._id, { text: 'deeper' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('REPLY_DEPTH_EXCEEDED');
    expect(res.body.message).toMatch(/replyTo/);
    expect(await gsi1(keys.repliesOf(r._id))).toHaveLength(0);
    expect(await gsi1(keys.repliesOf(top._id))).toHaveLength(1);
    expect(await commentItem(r._id)).toMatchObject({ repliesCount: 0 });
    expect(await commentItem(top._id)).toMatchObject({ repliesCount: 1 });
    expect((await postItem(post.id))!.commentsCount).toBe(2);
  });

  it('refuses a replyTo outside the thread (another thread, a top-level comment, nothing) naming replyTo', async () => {
    const [author, a] = await makeUsers(2);
    const post = await makePost(author!);
    const top = created(await comment(a!, post.id, 'top'));
    const otherTop = created(await comment(a!, post.id, 'other'));
    const otherReply = created(await reply(a!, otherTop._id, { text: 'elsewhere' }));
    for (const replyTo of [otherReply._id, otherTop._id, newId(), 'nope']) {
      const res = await reply(a!, top._id, { text: 'x', replyTo });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.details.map((d: { path: string }) => d.path)).toEqual(['replyTo']);
    }
    expect(await commentItem(top._id)).toMatchObject({ repliesCount: 0 });
    expect((await postItem(post.id))!.commentsCount).toBe(3);
  });

  it('404 for a missing comment; idempotent with one key', async () => {
    const [author, a] = await makeUsers(2);
    const post = await makePost(author!);
    expect((await reply(a!, newId(), { text: 'x' })).status).toBe(404);
    const top = created(await comment(a!, post.id, 'top'));
    const headers = { 'Idempotency-Key': `r-${top._id}` };
    const results = await Promise.all(Array.from({ length: 10 }, () => reply(a!, top._id, { text: 'once' }, { headers })));
    const done = results.filter((r) => r.status === 201);
    expect(done.length).toBeGreaterThanOrEqual(1);
    expect(results.filter((r) => r.status !== 201).every((r) => r.status === 409 && r.body.code === 'IDEMPOTENCY_KEY_IN_USE')).toBe(true);
    expect(new Set(done.map((r) => r.body.data._id)).size).toBe(1);
    expect(await gsi1(keys.repliesOf(top._id))).toHaveLength(1);
    expect(await commentItem(top._id)).toMatchObject({ repliesCount: 1 });
    expect((await postItem(post.id))!.commentsCount).toBe(2);
    expect(await getItem(keys.idempotency(a!.id, `r-${top._id}`))).toMatchObject({ state: 'done', status: 201 });
  });
});
