// Mentions in comments and replies (contract section 19): the `mentions` of the item and its
// answers, and the MENTION notifications the real change stream derives from it.
import '../support/own-stream-table';
import { mute as muteRoute, setPrivate as setPrivateRoute } from '../support/private';
import { call } from '../support/invoke';
import { makePost, users } from '../support/posts';
import { block, follow } from '../support/graph';
import { comment, created, remove, replies, reply } from '../support/comment-api';
import { eventually, startTestStream, type TestStream } from '../support/stream';
import type { TestUser } from '../support/factories';
import { handler as notificationsH } from '../../functions/notifications/list';

let stream: TestStream;
beforeAll(() => { stream = startTestStream(); });
afterAll(() => stream.poller.stop());
afterEach(() => expect(stream.deadLetters).toEqual([]));

type Note = { type: string; post: string | null; comment: string | null; actor: { _id: string } };
const notes = async (u: TestUser): Promise<Note[]> => {
  const res = await call(notificationsH, 'GET /notifications', { token: u.token });
  expect(res.status).toBe(200);
  return res.body.notifications as Note[];
};
const mentions = async (u: TestUser) => (await notes(u)).filter((n) => n.type === 'MENTION');
const setPrivate = async (u: TestUser, isPrivate: boolean) => expect((await setPrivateRoute(u, isPrivate)).status).toBe(200);
const mute = async (by: TestUser, whom: TestUser) => expect((await muteRoute(by, whom)).status).toBe(200);
const at = (...us: TestUser[]) => us.map((u) => `@${u.username}`).join(' ');

describe('mentions of comments and replies', () => {
  it('carries the mentioned ids in order of first mention, names of no account left out', async () => {
    const [author, commenter, m1, m2] = await users(4);
    const p = (await makePost(author))._id;
    const res = await comment(commenter, p, `${at(m2)} @nobody_${Date.now()} @${m1.username.toUpperCase()}. ${at(m2)}`);
    const c = created(res) as unknown as { _id: string; mentions: string[] };
    expect(c.mentions).toEqual([m2.id, m1.id]);
    const r = created(await reply(author, c._id, { text: `thanks ${at(m1)}` })) as unknown as { _id: string; mentions: string[] };
    expect(r.mentions).toEqual([m1.id]);
    const listed = await replies(author, c._id);
    expect(listed.status).toBe(200);
    expect(listed.body.data.replies.map((x: { mentions: string[] }) => x.mentions)).toEqual([[m1.id]]);
  });

  it('notifies the mentioned beside the COMMENT, not the author of the comment', async () => {
    const [author, commenter, m] = await users(3);
    const p = (await makePost(author))._id;
    const c = created(await comment(commenter, p, `look ${at(m, commenter, author)}`))._id;
    const got = await eventually(() => mentions(m), (n) => n.length === 1);
    expect(got[0]).toMatchObject({ type: 'MENTION', post: p, comment: c, actor: { _id: commenter.id } });
    // The post's author mentioned in a comment gets both.
    const own = await eventually(() => notes(author), (n) => n.length === 2);
    expect(own.map((n) => n.type).sort()).toEqual(['COMMENT', 'MENTION']);
    expect(own.every((n) => n.comment === c && n.actor._id === commenter.id)).toBe(true);
    await stream.poller.idle();
    expect(await mentions(commenter)).toEqual([]);
  });

  it('does not notify one who muted the author of the comment', async () => {
    const [author, commenter, m, muter] = await users(4);
    await mute(muter, commenter);
    const p = (await makePost(author))._id;
    created(await comment(commenter, p, at(muter, m)));
    await eventually(() => mentions(m), (n) => n.length === 1);
    await stream.poller.idle();
    expect(await mentions(muter)).toEqual([]);
  });

  it('does not notify across a block with the author of the comment or of the post, either way', async () => {
    const [author, commenter, m, blocksCommenter, blockedByCommenter, blocksPostAuthor] = await users(6);
    expect((await block(blocksCommenter, commenter)).status).toBe(200);
    expect((await block(commenter, blockedByCommenter)).status).toBe(200);
    expect((await block(blocksPostAuthor, author)).status).toBe(200);
    const p = (await makePost(author))._id;
    const c = created(await comment(commenter, p, at(blocksCommenter, blockedByCommenter, blocksPostAuthor, m)));
    expect((c as unknown as { mentions: string[] }).mentions).toEqual([blocksCommenter.id, blockedByCommenter.id, blocksPostAuthor.id, m.id]);
    await eventually(() => mentions(m), (n) => n.length === 1);
    await stream.poller.idle();
    expect(await mentions(blocksCommenter)).toEqual([]);
    expect(await mentions(blockedByCommenter)).toEqual([]);
    expect(await mentions(blocksPostAuthor)).toEqual([]);
  });

  it('does not notify one who cannot see a private author\'s post', async () => {
    const [priv, follower, reader, stranger] = await users(4);
    expect((await follow(follower, priv)).status).toBe(200);
    expect((await follow(reader, priv)).status).toBe(200);
    await setPrivate(priv, true);
    const p = (await makePost(priv))._id;
    created(await comment(follower, p, at(stranger, reader)));
    await eventually(() => mentions(reader), (n) => n.length === 1);
    await stream.poller.idle();
    expect(await mentions(stranger)).toEqual([]);
  });

  it('notifies the mentions of a reply beside its REPLY, with the reply as comment', async () => {
    const [author, commenter, replier, m] = await users(4);
    const p = (await makePost(author))._id;
    const c = created(await comment(commenter, p, 'first'))._id;
    const r = created(await reply(replier, c, { text: `${at(m, commenter)} see this` }))._id;
    const got = await eventually(() => mentions(m), (n) => n.length === 1);
    expect(got[0]).toMatchObject({ type: 'MENTION', post: p, comment: r, actor: { _id: replier.id } });
    const parent = await eventually(() => notes(commenter), (n) => n.length === 2);
    expect(parent.map((n) => n.type).sort()).toEqual(['MENTION', 'REPLY']);
  });

  it('removes the MENTION notifications of a deleted comment or reply', async () => {
    const [author, commenter, m1, m2] = await users(4);
    const p = (await makePost(author))._id;
    const c = created(await comment(commenter, p, at(m1)))._id;
    const r = created(await reply(commenter, c, { text: at(m2) }))._id;
    await eventually(() => mentions(m1), (n) => n.length === 1);
    await eventually(() => mentions(m2), (n) => n.length === 1);
    expect((await remove(commenter, r)).status).toBe(200);
    await eventually(() => mentions(m2), (n) => n.length === 0);
    expect((await remove(author, c)).status).toBe(200);
    await eventually(() => mentions(m1), (n) => n.length === 0);
  });

  it('refuses more than 20 distinct usernames in a comment or a reply (400)', async () => {
    const [author, commenter] = await users(2);
    const p = (await makePost(author))._id;
    const names = (n: number) => Array.from({ length: n }, (_, i) => `@name${i}`).join(' ');
    // Twenty distinct names (one repeated in another case) pass.
    created(await comment(commenter, p, `${names(20)} @NAME0`));
    const c = created(await comment(commenter, p, 'ok'))._id;
    for (const res of [await comment(commenter, p, names(21)), await reply(commenter, c, { text: names(21) })]) {
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
  });
});
