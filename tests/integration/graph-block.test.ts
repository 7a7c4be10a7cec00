import * as keys from '../../lib/keys';
import { call } from '../support/invoke';
import { getItem, queryAll } from '../support/db';
import { blockListsOf, goneIds } from '../../lib/graph/hidden';
import { block, blockDirectly, blocked, blocks, counters, edgeCounts, follow, followers, following, follows, unblock, users } from '../support/graph';
import { handler as profile } from '../../functions/users/profile';

describe('POST /users/block/{identifier}', () => {
  it('removes follows both ways with their counters, in one step with the block and its record', async () => {
    const [a, b, c] = await users(3);
    await Promise.all([follow(a, b), follow(b, a), follow(c, a), follow(c, b)]);
    const res = await block(a, b.username.toUpperCase(), { 'X-Trace-Id': `blk-${a.id}` });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'User blocked successfully', isBlocked: true });
    expect(await follows(a, b)).toBe(false);
    expect(await follows(b, a)).toBe(false);
    expect(await blocks(a, b)).toBe(true);
    // c's follows are untouched.
    expect(await counters(a)).toEqual({ followersCount: 1, followingCount: 0, blockedCount: 1 });
    expect(await counters(b)).toEqual({ followersCount: 1, followingCount: 0, blockedCount: 0 });
    expect(await edgeCounts(a)).toEqual({ followersCount: 1, followingCount: 0, blockedCount: 1 });
    expect(await edgeCounts(b)).toEqual({ followersCount: 1, followingCount: 0, blockedCount: 0 });
    const records = await queryAll(keys.trace(`blk-${a.id}`));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ action: { type: 'USER_BLOCKED' }, actor: { id: a.id }, stateDiff: { before: {} } });
  });

  it('then refuses follows: 403 FORBIDDEN for the blocker, 404 for the blocked, changing nothing', async () => {
    const [a, b] = await users(2);
    await block(a, b);
    const byBlocker = await follow(a, b);
    expect(byBlocker.status).toBe(403);
    expect(byBlocker.body.code).toBe('FORBIDDEN');
    const byBlocked = await follow(b, a);
    expect(byBlocked.status).toBe(404);
    expect(byBlocked.body.code).toBe('NOT_FOUND');
    expect(await follows(a, b)).toBe(false);
    expect(await follows(b, a)).toBe(false);
    expect(await counters(a)).toEqual({ followersCount: 0, followingCount: 0, blockedCount: 1 });
    expect(await counters(b)).toEqual({ followersCount: 0, followingCount: 0, blockedCount: 0 });
  });

  it('is idempotent, refuses yourself and unknown users', async () => {
    const [a, b] = await users(2);
    await block(a, b);
    const again = await block(a, b.id);
    expect(again.status).toBe(200);
    expect(again.body.isBlocked).toBe(true);
    expect(await counters(a)).toMatchObject({ blockedCount: 1 });
    expect((await block(a, a.username)).body.code).toBe('SELF_ACTION');
    expect((await block(a, '01ARZ3NDEKTSV4RRFFQ69G5FAV')).status).toBe(404);
    expect(await counters(a)).toMatchObject({ blockedCount: 1 });
    expect(await edgeCounts(a)).toMatchObject({ blockedCount: 1 });
  });

  it('to the blocked user the blocker does not exist: blocking or unblocking it is a 404, changing nothing', async () => {
    const [a, b] = await users(2);
    await block(a, b);
    for (const res of [await block(b, a), await block(b, a.username), await unblock(b, a), await unblock(b, a.username.toUpperCase())]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    expect(await blocks(b, a)).toBe(false);
    expect(await counters(b)).toMatchObject({ blockedCount: 0 });
    expect((await blocked(b)).body).toMatchObject({ data: [], count: 0 });
    // Once unblocked, b may block a like anyone.
    await unblock(a, b);
    expect((await block(b, a)).status).toBe(200);
    expect((await follow(a, b)).status).toBe(404);
  });

  it('races: two users blocking each other at once end with exactly one block', async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b] = await users(2);
      const [ab, ba] = await Promise.all([block(a, b), block(b, a)]);
      expect([ab.status, ba.status].sort()).toEqual([200, 404]);
      expect([await blocks(a, b), await blocks(b, a)].filter(Boolean)).toHaveLength(1);
      const winner = ab.status === 200 ? a : b;
      expect(await counters(winner)).toMatchObject({ blockedCount: 1 });
    }
  });

  it('where both blocked each other, each blocked list shows the other with only _id and username', async () => {
    const [a, b] = await users(2);
    await block(a, b);
    await blockDirectly(b, a);
    const empty = { name: '', image: '', bio: '', gender: '', emailVerified: false, isPrivate: false, followers: [], following: [], createdAt: '', updatedAt: '' };
    for (const [viewer, other] of [[a, b], [b, a]] as const) {
      const res = await blocked(viewer);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([{ _id: other.id, username: other.username, ...empty }]);
      expect(res.body.count).toBe(1);
    }
    // Each may remove its own block (a 404 would tell it of the other's, and keep both for good);
    // then the other's block stands, and to the unblocker the other does not exist again.
    expect((await unblock(b, a)).status).toBe(200);
    expect(await blocks(b, a)).toBe(false);
    expect(await counters(b)).toMatchObject({ blockedCount: 0 });
    expect((await unblock(b, a)).status).toBe(404);
    expect((await block(b, a)).status).toBe(404);
    expect((await blocked(a)).body.data[0]).toMatchObject({ _id: b.id, name: b.name });
  });

  it('races: a block during concurrent follows leaves no follow between them and exact counters', async () => {
    const [a, b] = await users(2);
    const ops = [
      ...Array.from({ length: 6 }, () => follow(a, b)),
      ...Array.from({ length: 6 }, () => follow(b, a)),
      block(a, b),
      ...Array.from({ length: 6 }, () => follow(a, b)),
      ...Array.from({ length: 6 }, () => follow(b, a)),
    ];
    const results = await Promise.all(ops);
    expect(results.every((r) => [200, 403, 404].includes(r.status))).toBe(true);
    expect(await blocks(a, b)).toBe(true);
    expect(await follows(a, b)).toBe(false);
    expect(await follows(b, a)).toBe(false);
    expect(await counters(a)).toEqual(await edgeCounts(a));
    expect(await counters(b)).toEqual(await edgeCounts(b));
    expect(await counters(a)).toEqual({ followersCount: 0, followingCount: 0, blockedCount: 1 });
  });
});

describe('POST /users/unblock/{identifier}', () => {
  it('removes the block and its counter; follows work again; unblocking again is a 200 no-op', async () => {
    const [a, b] = await users(2);
    await block(a, b);
    const res = await unblock(a, b.username);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'User unblocked successfully', isBlocked: false });
    expect(await blocks(a, b)).toBe(false);
    expect(await counters(a)).toMatchObject({ blockedCount: 0 });
    expect((await follow(a, b)).status).toBe(200);
    expect((await follow(b, a)).status).toBe(200);
    const again = await unblock(a, b);
    expect(again.status).toBe(200);
    expect(again.body.isBlocked).toBe(false);
    expect(await counters(a)).toMatchObject({ blockedCount: 0 });
    // You never block yourself: undoing it is the contract's no-op, not SELF_ACTION.
    expect((await unblock(a, a)).body).toEqual({ success: true, message: 'You do not block this user', isBlocked: false });
    expect(await counters(a)).toMatchObject({ blockedCount: 0 });
    expect((await unblock(a, '01ARZ3NDEKTSV4RRFFQ69G5FAV')).status).toBe(404);
  });
});

describe('GET /users/blocked', () => {
  it('lists the blocked users newest first, base fields only, count = total, paged', async () => {
    const [a, b, c, d] = await users(4);
    for (const u of [b, c, d]) expect((await block(a, u)).status).toBe(200);
    const first = await blocked(a, { limit: '2' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, message: 'Blocked users retrieved successfully', count: 3 });
    expect(first.body.data.map((u: { _id: string }) => u._id)).toEqual([d.id, c.id]);
    expect(first.body.pagination.hasMore).toBe(true);
    for (const u of first.body.data) {
      expect(u).not.toHaveProperty('email');
      expect(u).not.toHaveProperty('bookmarks');
      expect(u).not.toHaveProperty('blocked_users');
      expect(u).not.toHaveProperty('isFollowing');
    }
    const second = await blocked(a, { limit: '2', cursor: first.body.pagination.nextCursor });
    expect(second.body.data.map((u: { _id: string }) => u._id)).toEqual([b.id]);
    expect(second.body.count).toBe(3);
    expect(second.body.pagination).toEqual({ hasMore: false, nextCursor: null });
  });

  it('refuses a bad limit or cursor with 400 VALIDATION_ERROR', async () => {
    const [a] = await users(1);
    const bad: Record<string, string>[] = [{ limit: '0' }, { limit: '101' }, { limit: 'x' }, { cursor: 'not a cursor' },
      { cursor: Buffer.from('{"PK":"USER#x"}').toString('base64url') }, { cursor: 'AAAA' },
      // The cursor's shape with a date that never was: month 13, 30 February, hour 24.
      { cursor: '20261327144651213.01ARZ3NDEKTSV4RRFFQ69G5FAV' }, { cursor: '20260230000000000.01ARZ3NDEKTSV4RRFFQ69G5FAV' },
      { cursor: '20261127240000000.01ARZ3NDEKTSV4RRFFQ69G5FAV' }];
    for (const query of bad) {
      const res = await blocked(a, query);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('block visibility in lists and profiles', () => {
  it('hides the blocker from the blocked: profile and both lists answer 404', async () => {
    const [a, b] = await users(2);
    await block(a, b);
    expect((await followers(b, a)).status).toBe(404);
    expect((await following(b, a.username)).status).toBe(404);
    expect((await call(profile, 'GET /users/{identifier}', { params: { identifier: a.id }, token: b.token })).status).toBe(404);
    // The blocker still sees the blocked user's lists.
    expect((await followers(a, b)).status).toBe(200);
    expect((await following(a, b)).status).toBe(200);
  });
});

describe('a user\'s two block lists (lib/graph/hidden.ts)', () => {
  it('keep a mirror of each block in the blocked user\'s partition, written and removed with the edge', async () => {
    const [a, b] = await users(2);
    await block(a, b);
    const edge = await getItem(keys.block(a.id, b.id));
    const mirror = await getItem(keys.blockedBy(b.id, a.id));
    expect(mirror).toMatchObject({ type: 'BLOCKED_BY', blockerId: a.id, blockedId: b.id, createdAt: edge!.createdAt });
    // No index keys: the mirror is read only by its own partition's Query.
    expect(Object.keys(mirror!).filter((k) => k.startsWith('GSI'))).toEqual([]);
    await unblock(a, b);
    expect(await getItem(keys.blockedBy(b.id, a.id))).toBeUndefined();
    // An unblock refused (b blocks a: to a, b does not exist) touches no mirror of anyone else.
    await block(b, a);
    expect((await unblock(a, b)).status).toBe(404);
    expect(await getItem(keys.blockedBy(a.id, b.id))).toBeDefined();
  });

  it('are both directions from one Query of the own partition, newest first, the same as the indexes give', async () => {
    const [a, b, c, d, e] = await users(5);
    await block(a, b);
    await block(c, a);
    await block(a, d);
    await block(e, a);
    await block(b, c); // not a's
    // Accounts hidden from everyone (other files' suspensions and deletions) are in every blockedBy.
    const own = async (cap?: number) => {
      const [lists, gone] = await Promise.all([blockListsOf(a.id, cap), goneIds()]);
      return { blocked: lists.blocked, blockedBy: lists.blockedBy.filter((id) => !gone.includes(id)) };
    };
    const lists = await own();
    expect(lists).toEqual({ blocked: [d.id, b.id], blockedBy: [e.id, c.id] });
    // Beyond the cap the indexes are read instead, with the same answer.
    expect(await own(1)).toEqual(lists);
    await unblock(a, d);
    expect(await own()).toEqual({ blocked: [b.id], blockedBy: [e.id, c.id] });
  });
});
