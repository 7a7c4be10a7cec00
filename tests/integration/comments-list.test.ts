import { makeUser, makeUsers } from '../support/factories';
import { makePost, dropPost } from '../support/comment-fixtures';
import { comment, reply, replies, comments, created, walk, like } from '../support/comment-api';
import { newId } from '../../lib/ids';

describe('GET /comments/replies/{comment_id}', () => {
  it('25 replies written at once, walked with limit 3: every reply exactly once, in order, createdAt strictly increasing', async () => {
    const users = await makeUsers(5);
    const post = await makePost(users[0]!);
    const top = created(await comment(users[0]!, post.id, 'top'));
    const written = await Promise.all(Array.from({ length: 25 }, (_, i) => reply(users[i % 5]!, top._id, { text: `r${i}` })));
    expect(written.map((r) => r.status)).toEqual(Array(25).fill(201));
    const seen = await walk((q) => replies(users[1]!, top._id, q), 3, 'replies');
    expect(seen).toHaveLength(25);
    expect(new Set(seen.map((r) => r._id))).toEqual(new Set(written.map((r) => r.body.data._id)));
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.createdAt > seen[i - 1]!.createdAt).toBe(true);
  });

  it('answers the message and shape of the seed, hasMore/nextCursor at the end, likes from edges', async () => {
    const [a, b] = await makeUsers(2);
    const post = await makePost(a!);
    const top = created(await comment(a!, post.id, 'top'));
    const r1 = created(await reply(b!, top._id, { text: 'one' }));
    const r2 = created(await reply(a!, top._id, { text: 'two' }));
    expect((await like(a!, r1._id)).status).toBe(200);
    const page1 = await replies(a!, top._id, { limit: '1' });
    expect(page1.status).toBe(200);
    expect(page1.body).toEqual({
      success: true,
      message: 'Replies retrieved successfully',
      data: {
        replies: [{
          _id: r1._id, text: 'one', author: b!.id, post: post.id, parentComment: top._id, replyTo: top._id, mentions: [],
          likes: [a!.id], likesCount: 1, isLiked: true, repliesCount: 0, createdAt: r1.createdAt, updatedAt: r1.createdAt,
        }],
        pagination: { hasMore: true, nextCursor: r1.createdAt },
      },
    });
    const page2 = await replies(a!, top._id, { limit: '1', cursor: r1.createdAt });
    expect(page2.body.data.replies.map((r: { _id: string }) => r._id)).toEqual([r2._id]);
    expect(page2.body.data.pagination).toEqual({ hasMore: false, nextCursor: r2.createdAt });
    const past = await replies(a!, top._id, { cursor: r2.createdAt });
    expect(past.body.data).toEqual({ replies: [], pagination: { hasMore: false, nextCursor: null } });
  });

  it('default limit is 10', async () => {
    const a = await makeUser();
    const post = await makePost(a);
    const top = created(await comment(a, post.id, 'top'));
    await Promise.all(Array.from({ length: 11 }, (_, i) => reply(a, top._id, { text: `r${i}` })));
    const res = await replies(a, top._id);
    expect(res.body.data.replies).toHaveLength(10);
    expect(res.body.data.pagination.hasMore).toBe(true);
  });

  it.each([
    [{ limit: '0' }, 'limit'], [{ limit: '51' }, 'limit'], [{ limit: 'ten' }, 'limit'], [{ limit: '2.5' }, 'limit'],
    [{ cursor: 'yesterday' }, 'cursor'], [{ cursor: '2026-13-01T00:00:00.000Z' }, 'cursor'], [{ cursor: '' }, 'cursor'],
    [{ page: '1' }, 'page'],
  ])('refuses %j with 400 naming %s', async (query, path) => {
    const a = await makeUser();
    const post = await makePost(a);
    const top = created(await comment(a, post.id, 'top'));
    const res = await replies(a, top._id, query as Record<string, string>);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.map((d: { path: string }) => d.path)).toEqual([path]);
  });

  it('404 for a missing comment and for a comment of a deleted post', async () => {
    const a = await makeUser();
    expect((await replies(a, newId())).status).toBe(404);
    const post = await makePost(a);
    const top = created(await comment(a, post.id, 'top'));
    await reply(a, top._id, { text: 'r' });
    await dropPost(a, post.id);
    const res = await replies(a, top._id);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
  });
});

describe('GET /comments/post/{post_id}', () => {
  it('top-level comments only, oldest first, walked exactly once', async () => {
    const users = await makeUsers(3);
    const post = await makePost(users[0]!);
    const tops = await Promise.all(Array.from({ length: 12 }, (_, i) => comment(users[i % 3]!, post.id, `c${i}`)));
    await reply(users[1]!, tops[0]!.body.comment._id, { text: 'not listed here' });
    const first = await comments(users[2]!, post.id, { limit: '5' });
    expect(first.body.message).toBe('Comments retrieved successfully');
    expect(first.body.data.comments).toHaveLength(5);
    const seen = await walk((q) => comments(users[2]!, post.id, q), 5, 'comments');
    expect(seen.map((c) => c._id).sort()).toEqual(tops.map((r) => r.body.comment._id).sort());
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.createdAt > seen[i - 1]!.createdAt).toBe(true);
    const counts = seen.map((c) => (c as unknown as { repliesCount: number }).repliesCount);
    expect(counts.reduce((s, n) => s + n, 0)).toBe(1);
  });

  it('404 for a missing or deleted post; an empty post answers no comments', async () => {
    const a = await makeUser();
    expect((await comments(a, newId())).status).toBe(404);
    const post = await makePost(a);
    expect((await comments(a, post.id)).body.data).toEqual({ comments: [], pagination: { hasMore: false, nextCursor: null } });
    await comment(a, post.id, 'x');
    await dropPost(a, post.id);
    expect((await comments(a, post.id)).status).toBe(404);
  });
});
