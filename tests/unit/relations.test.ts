// How a page of users stands to the caller, from the caller's block lists and the follow keys
// only (lib/graph/relations.ts), and when those keys may be read eventually consistent.
import { followKeys, followReads, relationsFrom } from '../../lib/graph/relations';
import { itemKey } from '../../lib/db/batch';
import * as keys from '../../lib/keys';
import type { UserItem } from '../../lib/users/model';

const user = (over: Partial<UserItem>) => ({ id: 'ME', ...over }) as UserItem;

describe('relationsFrom', () => {
  const lists = { blocked: ['B1'], blockedBy: ['B2', 'GONE'] };
  it('takes blocks from the lists and follows from the keys found', () => {
    const found = new Map<string, unknown>([[itemKey(keys.follow('ME', 'F')), {}]]);
    const rels = relationsFrom('ME', ['F', 'N', 'B1', 'B2', 'GONE', 'ME'], found, lists);
    expect(rels.get('F')).toEqual({ isFollowing: true, isBlocked: false, blocksCaller: false });
    expect(rels.get('N')).toEqual({ isFollowing: false, isBlocked: false, blocksCaller: false });
    expect(rels.get('B1')).toMatchObject({ isBlocked: true, blocksCaller: false });
    expect(rels.get('B2')).toMatchObject({ isBlocked: false, blocksCaller: true });
    expect(rels.get('GONE')).toMatchObject({ blocksCaller: true });
    expect(rels.get('ME')).toEqual({ isFollowing: false, isBlocked: false, blocksCaller: false });
  });
  it("trusts the caller's newest followings beside a key an eventually consistent read did not find yet", () => {
    expect(relationsFrom('ME', ['NEW'], new Map(), lists, ['NEW']).get('NEW')!.isFollowing).toBe(true);
  });
});

describe('followKeys', () => {
  it('one follow key per other user, each once', () => {
    expect(followKeys('ME', ['A', 'ME', 'A', 'B'])).toEqual([keys.follow('ME', 'A'), keys.follow('ME', 'B')]);
  });
});

describe('followReads', () => {
  it('eventually consistent only while the recent ids reflect every follow change of the caller', () => {
    expect(followReads(user({ edgesV: 3, recentV: 3, recentFollowing: ['X'] }))).toEqual({ consistent: false, recentFollowing: ['X'] });
    expect(followReads(user({ edgesV: 4, recentV: 3, recentFollowing: ['X'] }))).toEqual({ consistent: true });
    expect(followReads(user({}))).toEqual({ consistent: true });
    expect(followReads(user({ recentV: 0 }))).toEqual({ consistent: false, recentFollowing: [] });
  });
});
