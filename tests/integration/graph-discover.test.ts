// A table of its own (imported first): the most-followed accounts are read table-wide, and the
// order checked against follower counts read after the answer would move with another file's
// follows in between.
import '../support/own-table';
import { call } from '../support/invoke';
import { getItem } from '../support/db';
import { makeUser, uniq } from '../support/factories';
import { block, follow, users } from '../support/graph';
import * as keys from '../../lib/keys';
import { handler as suggestedH } from '../../functions/users/suggested';
import { handler as searchH } from '../../functions/users/search';
import { POPULAR_TOP } from '../../lib/graph/popular';

// These rankings are checked against follower counts changed a moment ago: the shared
// most-followed list, up to POPULAR_TOP.maxAgeMs old by design (popular-top.test.ts), is read
// from the shards on every ranking here.
beforeAll(() => { POPULAR_TOP.maxAgeMs = 0; });

type U = { _id: string; email?: string; mutualFollowers: U[]; followerBy: U[] };
const suggested = (token: string, query?: Record<string, string>) => call(suggestedH, 'GET /users/suggested', { token, query });
const search = (token: string, query: Record<string, string>) => call(searchH, 'GET /users/search', { token, query });
const ids = (list: { _id: string }[]) => list.map((u) => u._id);

describe('GET /users/suggested', () => {
  it('ranks by followerBy, then mutualFollowers, then followers; excludes followed, blocked either way, and the caller', async () => {
    const [c, f1, f2, s, x, y, w, z, b1, b2, s2, e1, e2, e3] = await users(14);
    // x: followerBy {f1, f2}. w: followerBy {f2}, mutual {s, s2}, 3 followers.
    // y: followerBy {f1}, mutual {f1} (f1 follows c too), 4 followers: mutuals outrank follower counts.
    const done = await Promise.all([
      follow(c, f1), follow(c, f2), follow(c, z), follow(s, c), follow(s2!, c),
      follow(f1, x), follow(f2, x), follow(f1, y), follow(f2, w), follow(f1, z), follow(f1, c),
      follow(s, x), follow(s, w), follow(s2!, w), follow(e1!, y), follow(e2!, y), follow(e3!, y),
      follow(f1, b1), follow(f1, b2!),
    ]);
    expect(done.every((r) => r.status === 200)).toBe(true);
    await block(c, b1);
    await block(b2!, c);

    const res = await suggested(c.token, { limit: '20' });
    expect(res.status).toBe(200);
    const list: U[] = res.body.users;
    expect(ids(list).slice(0, 3)).toEqual([x.id, w.id, y.id]);
    const [sx, sw, sy] = list;
    expect(ids(sx!.followerBy).sort()).toEqual([f1.id, f2.id].sort());
    expect(ids(sx!.mutualFollowers).sort()).toEqual([s.id, f1.id].sort());
    expect(ids(sw!.followerBy)).toEqual([f2.id]);
    expect(ids(sw!.mutualFollowers).sort()).toEqual([s.id, s2!.id].sort());
    expect(ids(sy!.followerBy)).toEqual([f1.id]);
    expect(ids(sy!.mutualFollowers)).toEqual([f1.id]);
    // The nested users are whole User objects, embedded arrays included.
    const nestedF1 = sx!.followerBy.find((u) => u._id === f1.id) as U & { following: string[]; followers: string[] };
    // b1 and b2 have a block with the caller: their ids are hidden even inside f1's arrays.
    expect([...nestedF1.following].sort()).toEqual([x.id, y.id, z.id, c.id].sort());
    expect(nestedF1.followers).toEqual([c.id]);
    expect(sy!.mutualFollowers[0]).toEqual(nestedF1);
    for (const hidden of [c, f1, f2, z, b1, b2!]) expect(ids(list)).not.toContain(hidden.id);
    expect(new Set(ids(list)).size).toBe(list.length);
    for (const u of [...list, ...list.flatMap((u) => [...u.followerBy, ...u.mutualFollowers])]) {
      expect(u).not.toHaveProperty('email');
      expect(u).not.toHaveProperty('bookmarks');
      expect(u).not.toHaveProperty('blocked_users');
    }
  });

  it('without graph signal answers the most-followed accounts, most followers first', async () => {
    // Six accounts followed by 5 to 10 fans: more than anyone else in this file's table so far.
    const [lonely, ...fans] = await users(11);
    const stars = await users(6);
    const done = await Promise.all(stars.flatMap((star, i) => fans.slice(0, 5 + i).map((fan) => follow(fan, star))));
    expect(done.every((r) => r.status === 200)).toBe(true);
    const res = await suggested(lonely.token, { limit: '5' });
    expect(res.status).toBe(200);
    expect(ids(res.body.users)).toEqual([stars[5]!.id, stars[4]!.id, stars[3]!.id, stars[2]!.id, stars[1]!.id]);
    const counts = await Promise.all(res.body.users.map(async (u: U) => Number((await getItem(keys.user(u._id)))!.followersCount)));
    expect(counts).toEqual([10, 9, 8, 7, 6]);
    expect(res.body.users.every((u: U) => u.followerBy.length === 0 && u.mutualFollowers.length === 0)).toBe(true);
  });

  it('leaves out a popular account that blocked the caller or that the caller follows', async () => {
    const [star, caller, blocker, ...fans] = await users(12);
    await Promise.all(fans.map((f) => Promise.all([follow(f, star), follow(f, blocker)])));
    await block(blocker, caller);
    const before = await suggested(caller.token, { limit: '50' });
    expect(ids(before.body.users)).toContain(star.id);
    expect(ids(before.body.users)).not.toContain(blocker.id);
    await follow(caller, star);
    const after = await suggested(caller.token, { limit: '50' });
    expect(ids(after.body.users)).not.toContain(star.id);
  });

  it('refuses a bad limit', async () => {
    const u = await makeUser();
    for (const limit of ['0', '51', 'ten']) expect((await suggested(u.token, { limit })).status).toBe(400);
    expect((await suggested(u.token, { page: '1' })).status).toBe(400);
  });
});

describe('GET /users/search', () => {
  it('ranks the exact username, then username prefixes, then name matches, case-insensitively', async () => {
    const p = uniq('q');
    const caller = await makeUser();
    const byName = await makeUser({ name: `Ada ${p}zz` });
    const prefixed = await makeUser({ username: `${p}x` });
    const exact = await makeUser({ username: p, name: `Ada ${p}` });
    const res = await search(caller.token, { query: `  ${p.toUpperCase()} ` });
    expect(res.status).toBe(200);
    // exact matches both its username and its name: listed once, first.
    expect(ids(res.body.users)).toEqual([exact.id, prefixed.id, byName.id]);
    for (const u of res.body.users) expect(u).not.toHaveProperty('email');
    expect(ids((await search(caller.token, { query: p, limit: '2' })).body.users)).toEqual([exact.id, prefixed.id]);
  });

  it('matches every word of a multi-word query against the name, accents folded', async () => {
    const p = uniq('w');
    const caller = await makeUser();
    const elodie = await makeUser({ name: `Élodie ${p}` });
    await makeUser({ name: `Marie ${p}` });
    const res = await search(caller.token, { query: `elo ${p.toUpperCase()}` });
    expect(ids(res.body.users)).toEqual([elodie.id]);
    expect(ids((await search(caller.token, { query: `${p} ÉLODIE` })).body.users)).toEqual([elodie.id]);
  });

  it('leaves out users on either side of a block with the caller; the caller sees its own object', async () => {
    const p = uniq('b');
    const caller = await makeUser({ name: `Me ${p}` });
    const blocker = await makeUser({ name: `Blocker ${p}` });
    const blockee = await makeUser({ name: `Blockee ${p}` });
    const visible = await makeUser({ name: `Visible ${p}` });
    await block(blocker, caller);
    await block(caller, blockee);
    const res = await search(caller.token, { query: p });
    expect(res.status).toBe(200);
    expect(ids(res.body.users).sort()).toEqual([caller.id, visible.id].sort());
    const own = res.body.users.find((u: U) => u._id === caller.id);
    expect(own.email).toBe(caller.email);
    // From the other side too: the blocker does not find the caller.
    expect(ids((await search(blocker.token, { query: p })).body.users)).not.toContain(caller.id);
    expect(ids((await search(blockee.token, { query: p })).body.users)).not.toContain(caller.id);
  });

  it('treats hostile characters as characters', async () => {
    const caller = await makeUser();
    for (const query of ["' OR 1=1 --", '<script>alert(1)</script>', '%', '#', '*', '\\', '{"$ne":null}', 'SEARCH#U#a']) {
      const res = await search(caller.token, { query });
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body.users)).toBe(true);
    }
    expect((await search(caller.token, { query: '#%*' })).body.users).toEqual([]);
  });

  it('refuses a missing, empty or too long query, a bad limit and unknown parameters', async () => {
    const caller = await makeUser();
    for (const query of [{}, { query: '   ' }, { query: 'a'.repeat(101) }, { query: 'a', limit: '51' }, { query: 'a', limit: '0' }, { query: 'a', page: '2' }]) {
      const res = await search(caller.token, query as Record<string, string>);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
    expect((await search(caller.token, { query: 'a'.repeat(100) })).status).toBe(200);
  });
});
