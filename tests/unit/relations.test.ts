// How a page of users stands to the caller, from the caller's block lists and its follows as
// the page's plan reads them (lib/graph/relations.ts): its recent ids, its following index, or
// one key per user; and when those reads may be eventually consistent.
import { FOLLOW_EDGE_BYTES, followKeys, followPlan, followReads, relationsFrom } from '../../lib/graph/relations';
import { itemKey } from '../../lib/db/batch';
import * as keys from '../../lib/keys';
import type { UserItem } from '../../lib/users/model';

const user = (over: Partial<UserItem>) => ({ id: 'ME', ...over }) as UserItem;

describe('relationsFrom', () => {
  const lists = { blocked: ['B1'], blockedBy: ['B2', 'GONE'] };
  it('takes blocks from the lists and follows from the plan', () => {
    const rels = relationsFrom('ME', ['F', 'N', 'B1', 'B2', 'GONE', 'ME'], (id) => id === 'F' || id === 'ME', lists);
    expect(rels.get('F')).toEqual({ isFollowing: true, isBlocked: false, blocksCaller: false });
    expect(rels.get('N')).toEqual({ isFollowing: false, isBlocked: false, blocksCaller: false });
    expect(rels.get('B1')).toMatchObject({ isBlocked: true, blocksCaller: false });
    expect(rels.get('B2')).toMatchObject({ isBlocked: false, blocksCaller: true });
    expect(rels.get('GONE')).toMatchObject({ blocksCaller: true });
    // Nobody follows themselves.
    expect(rels.get('ME')).toEqual({ isFollowing: false, isBlocked: false, blocksCaller: false });
  });
});

describe('followKeys', () => {
  it('one follow key per other user, each once', () => {
    expect(followKeys('ME', ['A', 'ME', 'A', 'B'])).toEqual([keys.follow('ME', 'A'), keys.follow('ME', 'B')]);
  });
});

describe('followPlan', () => {
  const current = (followingCount: number, recentFollowing: string[]) => user({ edgesV: 3, recentV: 3, followingCount, recentFollowing });
  it('the keys, without the recent ids, while those are behind the caller\'s follow changes', () => {
    expect(followPlan(user({ edgesV: 4, recentV: 3, followingCount: 2, recentFollowing: ['X'] }), 20)).toEqual({ how: 'keys' });
    expect(followPlan(user({ followingCount: 0 }), 20)).toEqual({ how: 'keys' });
  });
  it('nothing to read when the recent ids are the whole following', () => {
    expect(followPlan(current(2, ['X', 'Y']), 20)).toEqual({ how: 'recent', recentFollowing: ['X', 'Y'] });
    expect(followPlan(user({ recentV: 0 }), 20)).toEqual({ how: 'recent', recentFollowing: [] });
  });
  it('the following index when its read units are fewer than a key per listed user (1 RCU each, strongly consistent), else the keys', () => {
    const ten = Array.from({ length: 10 }, (_, i) => `R${i}`);
    // 20 followings: 3 blocks of 4 KB (1.5 RCU) against 19 keys (19 RCU).
    expect(followPlan(current(20, ten), 19)).toEqual({ how: 'query', recentFollowing: ten, limit: 30 });
    // The boundary: 6 blocks of 4 KB are 3 RCU; as many read units in keys is not cheaper.
    const perUnit = Math.floor(4096 / FOLLOW_EDGE_BYTES);
    expect(followPlan(current(perUnit * 6, ten), 4)).toMatchObject({ how: 'query' });
    expect(followPlan(current(perUnit * 6, ten), 3)).toEqual({ how: 'keys', recentFollowing: ten });
    // A caller following 7,500 accounts reads keys on any page.
    expect(followPlan(current(7500, ten), 100)).toMatchObject({ how: 'keys' });
  });
});

describe('followReads', () => {
  it('keys: one per other user in the BatchGet, and the caller\'s newest followings trusted beside a key not found yet', async () => {
    const reads = followReads('ME', { how: 'keys', recentFollowing: ['NEW'] }, ['A', 'B', 'NEW', 'ME']);
    expect(reads.keys).toEqual(followKeys('ME', ['A', 'B', 'NEW', 'ME']));
    const follows = await reads.follows(new Map([[itemKey(keys.follow('ME', 'A')), {}]]));
    expect(['A', 'B', 'NEW'].map(follows)).toEqual([true, false, true]);
  });
  it('recent: no key, the recent ids alone', async () => {
    const reads = followReads('ME', { how: 'recent', recentFollowing: ['A'] }, ['A', 'B']);
    expect(reads.keys).toEqual([]);
    const follows = await reads.follows(new Map([[itemKey(keys.follow('ME', 'B')), {}]]));
    expect(['A', 'B'].map(follows)).toEqual([true, false]);
  });
});
