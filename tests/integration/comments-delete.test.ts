import { makeUsers } from '../support/factories';
import { makePost } from '../support/comment-fixtures';
import {
  comment, reply, replies, comments, created, remove, like, unlike, postItem, commentItem, countThread, traceRecords, gsi1,
} from '../support/comment-api';
import { getItem } from '../support/db';
import { lambdaContext } from '../support/invoke';
import { handler as worker } from '../../functions/cleanup/worker';
import * as keys from '../../lib/keys';
import { newId } from '../../lib/ids';

/** The counters of a post and of its comments equal the items that exist. */
async function expectExactCounters(postId: string) {
  const { total, repliesOf } = await countThread(postId);
  expect((await postItem(postId))!.commentsCount).toBe(total);
  for (const [id, n] of repliesOf) expect((await commentItem(id))!.repliesCount).toBe(n);
  return total;
}

describe('DELETE /comments/{comment_id}', () => {
  it("the comment's author and the post's author may delete; anyone else gets 403 and nothing changes", async () => {
    const [postAuthor, writer, stranger] = await makeUsers(3);
    const post = await makePost(postAuthor!);
    const c1 = created(await comment(writer!, post.id, 'one'));
    const c2 = created(await comment(writer!, post.id, 'two'));
    const r = created(await reply(writer!, c1._id, { text: 'r' }));

    for (const id of [c1._id, r._id]) {
      const res = await remove(stranger!, id);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    }
    expect(await commentItem(c1._id)).toBeDefined();
    expect(await expectExactCounters(post.id)).toBe(3);

    const byWriter = await remove(writer!, c2._id);
    expect(byWriter.status).toBe(200);
    expect(byWriter.body).toEqual({ success: true, message: 'Comment deleted successfully' });
    const byPostAuthor = await remove(postAuthor!, r._id);
    expect(byPostAuthor.body).toEqual({ success: true, message: 'Reply deleted successfully' });
    expect(await expectExactCounters(post.id)).toBe(1);
    expect((await remove(writer!, c2._id)).status).toBe(404);
    expect((await remove(writer!, newId())).status).toBe(404);
  });

  it('a top-level comment takes its replies with it, at once, with a cleanup job and a record', async () => {
    const [author, a, b] = await makeUsers(3);
    const post = await makePost(author!);
    const top = created(await comment(a!, post.id, 'top'));
    const keep = created(await comment(b!, post.id, 'keep'));
    const rs = await Promise.all([1, 2, 3].map((i) => reply(b!, top._id, { text: `r${i}` }).then((x) => created(x))));
    expect((await postItem(post.id))!.commentsCount).toBe(5);

    const res = await remove(a!, top._id);
    expect(res.status).toBe(200);
    expect((await postItem(post.id))!.commentsCount).toBe(1);
    expect(await getItem(keys.cleanupJob('comment', top._id))).toMatchObject({ kind: 'comment', targetId: top._id });
    const logs = await traceRecords(res.headers['x-trace-id']!);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ action: { type: 'COMMENT_DELETED' }, actor: { id: a!.id }, stateDiff: { after: {}, before: { text: 'top' } } });

    // Replies are still stored until the cleanup runs, but no read shows them.
    expect(await commentItem(rs[0]!._id)).toBeDefined();
    expect((await replies(b!, top._id)).status).toBe(404);
    for (const r of rs) {
      expect((await like(b!, r._id)).status).toBe(404);
      expect((await unlike(b!, r._id)).status).toBe(404);
      expect((await reply(b!, r._id, { text: 'x' })).status).toBe(404);
      expect((await remove(b!, r._id)).status).toBe(404);
    }
    expect((await reply(b!, top._id, { text: 'late' })).status).toBe(404);
    const listed = await comments(b!, post.id);
    expect(listed.body.data.comments.map((c: { _id: string }) => c._id)).toEqual([keep._id]);
    expect((await postItem(post.id))!.commentsCount).toBe(1);
  });

  it('the cleanup worker then removes the replies and every like physically, and its job', async () => {
    const [author, a, b] = await makeUsers(3);
    const post = await makePost(author!);
    const top = created(await comment(a!, post.id, 'top'));
    const rs = await Promise.all([1, 2].map((i) => reply(b!, top._id, { text: `r${i}` }).then((x) => created(x))));
    await like(b!, top._id);
    await like(a!, rs[0]!._id);
    expect((await remove(a!, top._id)).status).toBe(200);
    // No Lambda runtime in tests: run the worker the trigger would have invoked.
    const out = await worker({ kind: 'comment', id: top._id }, { ...lambdaContext(), getRemainingTimeInMillis: () => 300_000 });
    expect(out).toMatchObject({ done: true });
    for (const r of rs) expect(await commentItem(r._id)).toBeUndefined();
    expect(await gsi1(keys.repliesOf(top._id))).toHaveLength(0);
    expect(await gsi1(keys.likesOf(top._id))).toHaveLength(0);
    expect(await gsi1(keys.likesOf(rs[0]!._id))).toHaveLength(0);
    expect(await getItem(keys.cleanupJob('comment', top._id))).toBeUndefined();
    expect((await postItem(post.id))!.commentsCount).toBe(0);
  });

  it('races: replies deleted while their parent is deleted keep every counter exact', async () => {
    for (let round = 0; round < 3; round++) {
      const [author, a] = await makeUsers(2);
      const post = await makePost(author!);
      const top = created(await comment(a!, post.id, 'top'));
      const other = created(await comment(a!, post.id, 'other'));
      const rs = await Promise.all(Array.from({ length: 6 }, (_, i) => reply(a!, top._id, { text: `r${i}` }).then((x) => created(x))));
      const ors = await Promise.all(Array.from({ length: 3 }, (_, i) => reply(a!, other._id, { text: `o${i}` }).then((x) => created(x))));
      const results = await Promise.all([
        ...rs.map((r) => remove(a!, r._id)),
        remove(author!, top._id),
        remove(a!, ors[0]!._id),
      ]);
      expect(results.every((r) => r.status === 200 || r.status === 404)).toBe(true);
      expect(results[6]!.status).toBe(200);
      // Post: the other comment and its two remaining replies.
      expect((await postItem(post.id))!.commentsCount).toBe(3);
      expect((await commentItem(other._id))!.repliesCount).toBe(2);
    }
  });

  it('races: concurrent comments, replies and deletions leave commentsCount and repliesCount equal to the items', async () => {
    const users = await makeUsers(4);
    const post = await makePost(users[0]!);
    const tops = await Promise.all(Array.from({ length: 4 }, (_, i) => comment(users[i]!, post.id, `t${i}`).then((x) => created(x))));
    const rs = await Promise.all(tops.flatMap((t, i) => [0, 1].map((j) => reply(users[(i + j) % 4]!, t._id, { text: 'r' }).then((x) => created(x)))));
    await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => comment(users[i % 4]!, post.id, `n${i}`)),
      ...tops.flatMap((t) => [0, 1, 2].map((j) => reply(users[j]!, t._id, { text: 'more' }))),
      remove(users[0]!, tops[0]!._id),
      remove(users[0]!, tops[1]!._id), // post author
      remove(users[1]!, rs[2]!._id),
      remove(users[0]!, rs[5]!._id),
      remove(users[0]!, rs[0]!._id),
    ]);
    await expectExactCounters(post.id);
  });

  it('two deletions of one comment at once: one 200, one 404, counters moved once', async () => {
    const [author, a] = await makeUsers(2);
    const post = await makePost(author!);
    const top = created(await comment(a!, post.id, 'top'));
    await reply(a!, top._id, { text: 'r' });
    const results = await Promise.all([remove(a!, top._id), remove(author!, top._id), remove(a!, top._id)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 404, 404]);
    expect((await postItem(post.id))!.commentsCount).toBe(0);
  });
});
