// Private accounts and follow requests (contract section 18) with the real change stream:
// request, cancel, approve, reject, their notifications and counts, the follow limit, blocks,
// removing a follower and going public.
import '../support/own-stream-table';
import { call } from '../support/invoke';
import { users } from '../support/posts';
import { block, counters, follow, follows, unfollow } from '../support/graph';
import { getItem } from '../support/db';
import { eventually, startTestStream, type TestStream } from '../support/stream';
import type { TestUser } from '../support/factories';
import * as keys from '../../lib/keys';
import { handler as listH } from '../../functions/notifications/list';
import { handler as profileH } from '../../functions/users/profile';
import { approve, followRequests, reject, removeFollower, setPrivate } from '../support/private';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../../lib/db/client';
import { FOLLOW_LIMIT } from '../../lib/graph/edges';

let stream: TestStream;
beforeAll(() => { stream = startTestStream(); });
afterAll(() => stream.poller.stop());
afterEach(() => expect(stream.deadLetters).toEqual([]));

type N = { type: string; actor: { _id: string; followers: string[]; isPrivate: boolean } };
const notifications = async (u: TestUser) => {
  const res = await call(listH, 'GET /notifications', { token: u.token });
  expect(res.status).toBe(200);
  return res.body as { notifications: N[]; unreadCount: number };
};
const until = (u: TestUser, done: (v: Awaited<ReturnType<typeof notifications>>) => boolean) => eventually(() => notifications(u), done, 15_000);
const types = (v: { notifications: N[] }) => v.notifications.map((n) => n.type).sort().join(',');
const profile = (by: TestUser, t: TestUser) => call(profileH, 'GET /users/{identifier}', { token: by.token, params: { identifier: t.id } });
const requestsOut = async (u: TestUser) => Number((await getItem(keys.user(u.id)))?.requestsOut ?? 0);

describe('follow requests', () => {
  it('isPrivate is false by default, set by the profile edit, and a base field of every user object', async () => {
    const [owner, other] = await users(2);
    expect((await profile(other, owner)).body.user.isPrivate).toBe(false);
    const res = await setPrivate(owner, true);
    expect(res.status).toBe(200);
    expect(res.body.user.isPrivate).toBe(true);
    expect((await profile(other, owner)).body.user).toMatchObject({ isPrivate: true, requested: false, isMuted: false });
    expect((await call(profileH, 'GET /users/{identifier}', { token: owner.token, params: { identifier: owner.id } })).body.user)
      .toMatchObject({ isPrivate: true, requested: false, isMuted: false, isFollowing: false, isBlocked: false });
  });

  it('a follow of a private account is a pending request: counts unchanged, the owner told, a repeat changes nothing', async () => {
    const [owner, fan] = await users(2);
    await setPrivate(owner, true);
    const res = await follow(fan, owner);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Follow request sent', isFollowing: false, requested: true, followersCount: 0 });
    expect((await follow(fan, owner)).body).toMatchObject({ isFollowing: false, requested: true });
    expect(await follows(fan, owner)).toBe(false);
    expect(await counters(owner)).toMatchObject({ followersCount: 0 });
    expect(await counters(fan)).toMatchObject({ followingCount: 0 });
    expect(await requestsOut(fan)).toBe(1);
    expect((await profile(fan, owner)).body.user).toMatchObject({ isFollowing: false, requested: true, followers: [], following: [] });
    const seen = await until(owner, (v) => v.notifications.length === 1);
    expect(seen.notifications[0]).toMatchObject({ type: 'FOLLOW_REQUEST', actor: { _id: fan.id } });
    const list = await followRequests(owner);
    expect(list.status).toBe(200);
    expect(list.body.requests.map((u: { _id: string }) => u._id)).toEqual([fan.id]);
    expect(list.body.requests[0]).toMatchObject({ isFollowing: false, requested: false, isPrivate: false });
  });

  it('an unfollow cancels the request and its notification', async () => {
    const [owner, fan] = await users(2);
    await setPrivate(owner, true);
    await follow(fan, owner);
    await until(owner, (v) => v.notifications.length === 1);
    const res = await unfollow(fan, owner);
    expect(res.body).toMatchObject({ message: 'Follow request cancelled', isFollowing: false, requested: false });
    expect(await requestsOut(fan)).toBe(0);
    expect((await followRequests(owner)).body.requests).toEqual([]);
    await until(owner, (v) => v.notifications.length === 0 && v.unreadCount === 0);
  });

  it('approve makes a follow (counts, FOLLOW_REQUEST_APPROVED to the requester, no FOLLOW to the owner); a second approve is a 404', async () => {
    const [owner, fan] = await users(2);
    await setPrivate(owner, true);
    await follow(fan, owner);
    await until(owner, (v) => v.notifications.length === 1);
    const res = await approve(owner, fan.username);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Follow request approved', followersCount: 1 });
    expect(await follows(fan, owner)).toBe(true);
    expect(await counters(owner)).toMatchObject({ followersCount: 1 });
    expect(await counters(fan)).toMatchObject({ followingCount: 1 });
    expect(await requestsOut(fan)).toBe(0);
    const told = await until(fan, (v) => v.notifications.length === 1);
    expect(told.notifications[0]).toMatchObject({ type: 'FOLLOW_REQUEST_APPROVED', actor: { _id: owner.id } });
    await until(owner, (v) => v.notifications.length === 0);
    expect((await approve(owner, fan)).status).toBe(404);
    expect((await profile(fan, owner)).body.user).toMatchObject({ isFollowing: true, requested: false });
  });

  it('reject removes the request and its notification and tells the requester nothing; 404 when none is pending', async () => {
    const [owner, fan] = await users(2);
    await setPrivate(owner, true);
    await follow(fan, owner);
    await until(owner, (v) => v.notifications.length === 1);
    const res = await reject(owner, fan);
    expect(res.body).toEqual({ success: true, message: 'Follow request rejected' });
    expect((await reject(owner, fan)).status).toBe(404);
    expect(await requestsOut(fan)).toBe(0);
    expect(await counters(owner)).toMatchObject({ followersCount: 0 });
    await until(owner, (v) => v.notifications.length === 0);
    expect((await notifications(fan)).notifications).toEqual([]);
    // The requester may ask again.
    expect((await follow(fan, owner)).body).toMatchObject({ requested: true });
  });

  it('pending requests count toward the follow limit', async () => {
    const [owner, fan, third] = await users(3);
    await setPrivate(owner, true);
    await db.send(new UpdateCommand({ TableName: TABLE, Key: keys.user(fan.id), UpdateExpression: 'SET followingCount = :n', ExpressionAttributeValues: { ':n': FOLLOW_LIMIT - 1 } }));
    expect((await follow(fan, owner)).body).toMatchObject({ requested: true });
    const refused = await follow(fan, third);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FOLLOW_LIMIT_REACHED');
  });

  it('a block either way removes pending requests and their notifications at once', async () => {
    const [owner, fan, other] = await users(3);
    await setPrivate(owner, true);
    await follow(fan, owner);
    await follow(other, owner);
    await until(owner, (v) => v.notifications.length === 2);
    await block(owner, fan);
    await block(other, owner);
    expect(await getItem(keys.followRequest(fan.id, owner.id))).toBeUndefined();
    expect(await getItem(keys.followRequest(other.id, owner.id))).toBeUndefined();
    expect(await requestsOut(fan)).toBe(0);
    expect(await requestsOut(other)).toBe(0);
    expect((await notifications(owner)).notifications).toEqual([]);
    expect((await followRequests(owner)).body.requests).toEqual([]);
  });

  it('removing a follower ends the follow (counts, its FOLLOW notification) and tells nobody; a non-follower is a 200 no-op', async () => {
    const [owner, fan, stranger] = await users(3);
    await follow(fan, owner);
    await until(owner, (v) => v.notifications.length === 1);
    const res = await removeFollower(owner, fan);
    expect(res.body).toEqual({ success: true, message: 'Follower removed', followersCount: 0 });
    expect(await follows(fan, owner)).toBe(false);
    expect(await counters(fan)).toMatchObject({ followingCount: 0 });
    await until(owner, (v) => v.notifications.length === 0);
    expect((await notifications(fan)).notifications).toEqual([]);
    expect((await removeFollower(owner, stranger)).body).toMatchObject({ message: 'This user does not follow you', followersCount: 0 });
    // A pending request is not a follow: nothing changes.
    await setPrivate(owner, true);
    await follow(stranger, owner);
    expect((await removeFollower(owner, stranger)).body).toMatchObject({ followersCount: 0 });
    expect(await requestsOut(stranger)).toBe(1);
    // The removed follower may follow again (now a request).
    expect((await follow(fan, owner)).body).toMatchObject({ requested: true });
  });

  it('going private keeps every follower; going public approves every pending request within 10 s, counts exact', async () => {
    const [owner, kept, ...askers] = await users(6);
    await follow(kept, owner);
    await setPrivate(owner, true);
    expect(await follows(kept, owner)).toBe(true);
    for (const a of askers) expect((await follow(a, owner)).body).toMatchObject({ requested: true });
    await until(owner, (v) => types(v) === 'FOLLOW,FOLLOW_REQUEST,FOLLOW_REQUEST,FOLLOW_REQUEST,FOLLOW_REQUEST');
    expect((await setPrivate(owner, false)).body.user.isPrivate).toBe(false);
    await eventually(() => counters(owner), (c) => c.followersCount === 5, 10_000);
    for (const a of askers) {
      expect(await follows(a, owner)).toBe(true);
      expect(await requestsOut(a)).toBe(0);
      expect(await counters(a)).toMatchObject({ followingCount: 1 });
    }
    await until(owner, (v) => types(v) === 'FOLLOW');
    await until(askers[0]!, (v) => types(v) === 'FOLLOW_REQUEST_APPROVED');
    expect(await getItem(keys.job('go-public', owner.id))).toBeUndefined();
  });
});
