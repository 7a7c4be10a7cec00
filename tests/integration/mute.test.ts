// Muting (contract section 18) with the real change stream: the muted account leaves the
// muter's feed and explore from the next read and stops notifying; unmuting brings its posts
// back; nothing the muted account can read changes.
import '../support/own-stream-table';
import { call } from '../support/invoke';
import { makePost, users } from '../support/posts';
import { follow } from '../support/graph';
import { eventually, startTestStream, type TestStream } from '../support/stream';
import type { TestUser } from '../support/factories';
import { mute, muted, unmute } from '../support/private';
import { handler as feedH } from '../../functions/posts/feed';
import { handler as exploreH } from '../../functions/posts/explore';
import { handler as profileH } from '../../functions/users/profile';
import { handler as likeH } from '../../functions/posts/like';
import { handler as notificationsH } from '../../functions/notifications/list';

let stream: TestStream;
beforeAll(() => { stream = startTestStream(); });
afterAll(() => stream.poller.stop());
afterEach(() => expect(stream.deadLetters).toEqual([]));

const postIds = async (h: Parameters<typeof call>[0], route: string, u: TestUser) => {
  const res = await call(h, route, { token: u.token, query: { limit: '50' } });
  expect(res.status).toBe(200);
  return (res.body.posts as { _id: string }[]).map((p) => p._id);
};
const feed = (u: TestUser) => postIds(feedH, 'GET /posts/feed', u);
const explore = (u: TestUser) => postIds(exploreH, 'GET /posts/explore', u);
const notifications = async (u: TestUser) => (await call(notificationsH, 'GET /notifications', { token: u.token })).body.notifications as { type: string; actor: { _id: string } }[];

describe('mute', () => {
  it('takes the muted account out of feed and explore from the next read; unmute brings it back', async () => {
    const [me, followed, stranger] = await users(3);
    await follow(me, followed);
    const inFeed = await makePost(followed);
    const inExplore = await makePost(stranger);
    await eventually(() => feed(me), (ids) => ids.includes(inFeed._id), 15_000);
    expect(await explore(me)).toContain(inExplore._id);
    expect((await mute(me, followed)).body).toEqual({ success: true, message: 'User muted successfully', isMuted: true });
    expect((await mute(me, stranger)).status).toBe(200);
    expect(await feed(me)).not.toContain(inFeed._id);
    expect(await explore(me)).not.toContain(inExplore._id);
    // Follows, lists and direct reads are unchanged; the profile says it.
    const profile = await call(profileH, 'GET /users/{identifier}', { token: me.token, params: { identifier: followed.id } });
    expect(profile.body.user).toMatchObject({ isFollowing: true, isMuted: true });
    expect((await muted(me)).body.users.map((u: { _id: string }) => u._id)).toEqual([stranger.id, followed.id]);
    // Nothing the muted user reads changes.
    const seen = await call(profileH, 'GET /users/{identifier}', { token: followed.token, params: { identifier: me.id } });
    expect(seen.body.user).toMatchObject({ isMuted: false });
    expect((await unmute(me, followed)).body).toEqual({ success: true, message: 'User unmuted successfully', isMuted: false });
    expect((await unmute(me, followed)).body).toMatchObject({ message: 'You do not mute this user', isMuted: false });
    expect(await feed(me)).toContain(inFeed._id);
    expect((await muted(me)).body.users.map((u: { _id: string }) => u._id)).toEqual([stranger.id]);
  });

  it('muting yourself is a 400 SELF_ACTION; an unknown user a 404', async () => {
    const [me] = await users(1);
    const res = await mute(me, me);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('SELF_ACTION');
    expect((await mute(me, '01ARZ3NDEKTSV4RRFFQ69G5FAV')).status).toBe(404);
  });

  it('keeps the notifications from before the mute, and none of an action while muted ever comes, even after an unmute', async () => {
    const [me, noisy] = await users(2);
    const [first, second] = [await makePost(me), await makePost(me)];
    await follow(noisy, me);
    await eventually(() => notifications(me), (n) => n.length === 1, 15_000);
    await mute(me, noisy);
    expect((await call(likeH, 'POST /posts/like/{post_id}', { token: noisy.token, params: { post_id: first._id } })).status).toBe(200);
    // The stream has handled the like once a later, unmuted action's notification is there.
    const [other] = await users(1);
    expect((await call(likeH, 'POST /posts/like/{post_id}', { token: other.token, params: { post_id: second._id } })).status).toBe(200);
    await eventually(() => notifications(me), (n) => n.some((x) => x.actor._id === other.id), 15_000);
    await unmute(me, noisy);
    const list = await notifications(me);
    expect(list.filter((n) => n.actor._id === noisy.id).map((n) => n.type)).toEqual(['FOLLOW']);
  });
});
