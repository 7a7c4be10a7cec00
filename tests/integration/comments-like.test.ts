import { makeUsers } from '../support/factories';
import { makePost, dropPost } from '../support/comment-fixtures';
import { comment, comments, replies, reply, created, like, unlike, remove, commentItem, gsi1, traceRecords } from '../support/comment-api';
import { getItem } from '../support/db';
import * as keys from '../../lib/keys';
import { newId } from '../../lib/ids';
import { loadStandpoint } from '../../lib/comments/access';
import { setLike } from '../../lib/comments/like';
import { readTrace } from '../../lib/http/trace';

describe('POST /comments/like and /comments/unlike', () => {
  it('likes and unlikes idempotently, the count matching the edges, each call recorded', async () => {
    const [author, a] = await makeUsers(2);
    const post = await makePost(author!);
    const c = created(await comment(author!, post.id, 'like me'));
    const first = await like(a!, c._id);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true, message: 'Comment liked successfully', isLiked: true, likesCount: 1 });
    expect(await getItem(keys.commentLike(c._id, a!.id))).toMatchObject({ GSI1PK: keys.likesOf(c._id) });
    const twice = await like(a!, c._id);
    expect(twice.body).toMatchObject({ isLiked: true, likesCount: 1 });
    const noop = await traceRecords(twice.headers['x-trace-id']!);
    expect(noop).toHaveLength(1);
    expect(noop[0]).toMatchObject({ level: 'INFO', stateDiff: { changes: [] } });

    const off = await unlike(a!, c._id);
    expect(off.body).toEqual({ success: true, message: 'Comment unliked successfully', isLiked: false, likesCount: 0 });
    expect(await getItem(keys.commentLike(c._id, a!.id))).toBeUndefined();
    const again = await unlike(a!, c._id);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ isLiked: false, likesCount: 0 });
    expect((await commentItem(c._id))!.likesCount).toBe(0);
  });

  it('a comment in a list carries likesCount and the caller\'s isLiked, also past the 10 newest likers its likes array holds', async () => {
    const [author, early, ...fans] = await makeUsers(13);
    const post = await makePost(author!);
    const c = created(await comment(author!, post.id, 'popular'));
    const r = created(await reply(author!, c._id, { text: 'a reply' }));
    expect((await like(early!, c._id)).status).toBe(200);
    expect((await like(early!, r._id)).status).toBe(200);
    for (const f of fans) expect((await like(f, c._id)).status).toBe(200);
    const seenBy = async (u: typeof author) => (await comments(u!, post.id)).body.data.comments.find((x: { _id: string }) => x._id === c._id);
    // 12 likes: the array holds the newest 10, without the first liker, who still sees isLiked.
    const byEarly = await seenBy(early);
    expect(byEarly).toMatchObject({ likesCount: 12, isLiked: true });
    expect(byEarly.likes).toHaveLength(10);
    expect(byEarly.likes).not.toContain(early!.id);
    expect(await seenBy(fans[0])).toMatchObject({ likesCount: 12, isLiked: true });
    expect(await seenBy(author)).toMatchObject({ likesCount: 12, isLiked: false });
    // At once after an unlike, strongly consistent.
    expect((await unlike(early!, c._id)).status).toBe(200);
    expect(await seenBy(early)).toMatchObject({ likesCount: 11, isLiked: false });
    const rep = (await replies(early!, c._id)).body.data.replies[0];
    expect(rep).toMatchObject({ _id: r._id, likesCount: 1, isLiked: true, likes: [early!.id] });
    // A new comment's answer: no likes.
    expect(created(await comment(author!, post.id, 'fresh'))).toBeDefined();
    const fresh = await comment(author!, post.id, 'fresh too');
    expect(fresh.body.comment).toMatchObject({ likes: [], likesCount: 0, isLiked: false });
  });

  it('races: 10 users liking twice at once and 3 of them unliking leave likesCount equal to the edges', async () => {
    const users = await makeUsers(10);
    const post = await makePost(users[0]!);
    const r = created(await reply(users[0]!, created(await comment(users[0]!, post.id, 'top'))._id, { text: 'reply' }));
    const res = await Promise.all([...users, ...users].map((u) => like(u, r._id)));
    expect(res.every((x) => x.status === 200 && x.body.isLiked === true)).toBe(true);
    await Promise.all([...users.slice(0, 3), ...users.slice(0, 3)].map((u) => unlike(u, r._id)));
    const edges = await gsi1(keys.likesOf(r._id));
    expect(edges).toHaveLength(7);
    expect((await commentItem(r._id))!.likesCount).toBe(7);
  });

  it('404 for a missing comment or one whose post is deleted; nothing written', async () => {
    const [author, a] = await makeUsers(2);
    expect((await like(a!, newId())).status).toBe(404);
    const post = await makePost(author!);
    const c = created(await comment(author!, post.id, 'x'));
    await dropPost(author!, post.id);
    expect((await like(a!, c._id)).status).toBe(404);
    expect(await getItem(keys.commentLike(c._id, a!.id))).toBeUndefined();
    expect((await commentItem(c._id))!.likesCount).toBe(0);
  });

  it('a comment deleted after it was read is a 404 for a repeated like, not a no-op; nothing written', async () => {
    const [author, a] = await makeUsers(2);
    const post = await makePost(author!);
    const c = created(await comment(author!, post.id, 'x'));
    expect((await like(a!, c._id)).status).toBe(200);
    // Read as the handler reads it, then the comment goes (its like edge waits for the worker).
    const stale = await loadStandpoint(a!.id, c._id);
    expect((await remove(author!, c._id)).status).toBe(200);
    const { trace } = readTrace({});
    for (const liked of [true, false]) {
      await expect(setLike(stale, a!.id, liked, { trace, payload: {} })).rejects.toMatchObject({ status: 404 });
    }
    expect(await getItem(keys.commentLike(c._id, a!.id))).toBeDefined();
    expect(await traceRecords(trace.traceId)).toEqual([]);
  });
});
