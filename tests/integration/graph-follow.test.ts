import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../../lib/db/client';
import * as keys from '../../lib/keys';
import { makeUser } from '../support/factories';
import { queryAll } from '../support/db';
import { block, counters, edgeCounts, follow, follows, unfollow, users } from '../support/graph';

const traceRecords = (traceId: string) => queryAll(keys.trace(traceId));

describe('POST /users/follow/{identifier}', () => {
  it('follows by username in any case: one edge, both counters, a USER_FOLLOWED record', async () => {
    const [a, b] = await users(2);
    const res = await follow(a, b.username.toUpperCase(), { 'X-Trace-Id': `follow-${a.id}` });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'User followed successfully', isFollowing: true, requested: false, followersCount: 1 });
    expect(await follows(a, b)).toBe(true);
    expect(await counters(a)).toMatchObject({ followingCount: 1, followersCount: 0 });
    expect(await counters(b)).toMatchObject({ followersCount: 1, followingCount: 0 });
    const records = await traceRecords(`follow-${a.id}`);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      level: 'INFO', action: { type: 'USER_FOLLOWED' }, actor: { type: 'user', id: a.id },
      payload: { params: { identifier: b.username.toUpperCase() } },
      stateDiff: { before: {}, changes: ['followerId', 'followeeId', 'createdAt'] },
    });
  });

  it('is idempotent: following twice leaves one edge, answers 200 and records a no-op', async () => {
    const [a, b] = await users(2);
    expect((await follow(a, b)).status).toBe(200);
    const again = await follow(a, b.id.toLowerCase(), { 'X-Trace-Id': `again-${a.id}` });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ isFollowing: true, followersCount: 1 });
    expect(await counters(b)).toMatchObject({ followersCount: 1 });
    expect(await counters(a)).toMatchObject({ followingCount: 1 });
    expect(await edgeCounts(b)).toMatchObject({ followersCount: 1 });
    const records = await traceRecords(`again-${a.id}`);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ action: { type: 'USER_FOLLOWED' }, stateDiff: { before: {}, after: {}, changes: [] } });
  });

  it('refuses yourself (400 SELF_ACTION) and unknown users (404), changing nothing', async () => {
    const a = await makeUser();
    for (const id of [a.id, a.username.toUpperCase()]) {
      const res = await follow(a, id);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('SELF_ACTION');
    }
    const ghostId = await follow(a, '01ARZ3NDEKTSV4RRFFQ69G5FAV');
    expect(ghostId.status).toBe(404);
    expect(ghostId.body.code).toBe('NOT_FOUND');
    expect((await follow(a, 'nobody_by_this_name')).status).toBe(404);
    expect((await follow(a, 'bad-name!')).status).toBe(400);
    expect(await counters(a)).toEqual({ followersCount: 0, followingCount: 0, blockedCount: 0 });
    expect(await edgeCounts(a)).toEqual({ followersCount: 0, followingCount: 0, blockedCount: 0 });
  });

  it('stops at 7,500 followings with 403 FOLLOW_LIMIT_REACHED', async () => {
    const [a, b, c, d] = await users(4);
    expect((await follow(a, d)).status).toBe(200);
    // Not 7,500 real users: the counter is set directly on the user item, which is what the
    // limit condition reads (followingCount < 7500 in the follow transaction).
    const setFollowing = (n: number) => db.send(new UpdateCommand({
      TableName: TABLE, Key: keys.user(a.id), UpdateExpression: 'SET followingCount = :n', ExpressionAttributeValues: { ':n': n },
    }));
    await setFollowing(7499);
    expect((await follow(a, b)).status).toBe(200);
    expect(await counters(a)).toMatchObject({ followingCount: 7500 });

    const refused = await follow(a, c);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, code: 'FOLLOW_LIMIT_REACHED', message: 'You cannot follow more than 7,500 accounts.' });
    expect(await follows(a, c)).toBe(false);
    expect(await counters(a)).toMatchObject({ followingCount: 7500 });
    expect(await counters(c)).toMatchObject({ followersCount: 0 });

    // Following someone already followed is still the 200 no-op at the limit.
    const repeat = await follow(a, d);
    expect(repeat.status).toBe(200);
    expect(await counters(a)).toMatchObject({ followingCount: 7500 });

    // Unfollowing frees a place.
    expect((await unfollow(a, d)).status).toBe(200);
    expect((await follow(a, c)).status).toBe(200);
    expect(await counters(a)).toMatchObject({ followingCount: 7500 });
  });

  it('races: 30 users following one account at once make exactly 30 edges and followersCount 30', async () => {
    const [star, ...fans] = await users(31);
    const results = await Promise.all(fans.map((f) => follow(f, star)));
    expect(results.map((r) => r.status)).toEqual(fans.map(() => 200));
    expect(await counters(star!)).toMatchObject({ followersCount: 30 });
    expect(await edgeCounts(star!)).toMatchObject({ followersCount: 30 });
    const counts = await Promise.all(fans.map((f) => counters(f)));
    expect(counts.every((c) => c.followingCount === 1)).toBe(true);
    // Each answer is read after its own follow landed: at least 1, at most 30, and the last one sees 30.
    const answered = results.map((r) => r.body.followersCount as number);
    expect(answered.every((n) => n >= 1 && n <= 30)).toBe(true);
    expect(Math.max(...answered)).toBe(30);
  });

  it('races: following and unfollowing one account concurrently keeps counters equal to edges', async () => {
    const [a, b] = await users(2);
    const ops = Array.from({ length: 24 }, (_, i) => (i % 2 ? unfollow(a, b) : follow(a, b)));
    const results = await Promise.all(ops);
    expect(results.every((r) => r.status === 200)).toBe(true);
    const edge = (await follows(a, b)) ? 1 : 0;
    expect(await counters(a)).toMatchObject({ followingCount: edge });
    expect(await counters(b)).toMatchObject({ followersCount: edge });
    expect(await edgeCounts(a)).toMatchObject({ followingCount: edge });
    expect(await edgeCounts(b)).toMatchObject({ followersCount: edge });
  });
});

describe('POST /users/unfollow/{identifier}', () => {
  it('removes the edge and both counters; unfollowing again is a 200 no-op', async () => {
    const [a, b] = await users(2);
    await follow(a, b);
    const res = await unfollow(a, b.username);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'User unfollowed successfully', isFollowing: false, requested: false, followersCount: 0 });
    expect(await follows(a, b)).toBe(false);
    expect(await counters(a)).toMatchObject({ followingCount: 0 });
    expect(await counters(b)).toMatchObject({ followersCount: 0 });

    const again = await unfollow(a, b, { 'X-Trace-Id': `unf-${a.id}` });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ isFollowing: false, followersCount: 0 });
    expect(await counters(a)).toMatchObject({ followingCount: 0 });
    expect(await counters(b)).toMatchObject({ followersCount: 0 });
    const records = await traceRecords(`unf-${a.id}`);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ action: { type: 'USER_UNFOLLOWED' }, stateDiff: { changes: [] } });
  });

  it('answers 404 when the target blocked the caller or does not exist; unfollowing yourself is a no-op', async () => {
    const [a, b] = await users(2);
    await block(b, a);
    expect((await unfollow(a, b)).status).toBe(404);
    expect((await unfollow(a, '01ARZ3NDEKTSV4RRFFQ69G5FAV')).status).toBe(404);
    const t = `self-${a.id}`;
    const self = await unfollow(a, a, { 'X-Trace-Id': t });
    expect(self.status).toBe(200);
    // A no-op still has its record, which says nothing changed.
    expect(await queryAll(keys.trace(t))).toEqual([expect.objectContaining({ level: 'INFO', action: expect.objectContaining({ type: 'USER_UNFOLLOWED' }), stateDiff: { before: {}, after: {}, changes: [] } })]);
    expect(self.body).toEqual({ success: true, message: 'You do not follow this user', isFollowing: false, requested: false, followersCount: 0 });
    expect(await counters(a)).toMatchObject({ followingCount: 0, followersCount: 0 });
  });
});
