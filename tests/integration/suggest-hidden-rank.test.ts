// Contract section 7: suggestions are ranked by followerBy size, then mutualFollowers size. A
// sampled user hidden from the caller (here suspended) is left out of those lists in the
// answer; it must not count toward the rank either, or a candidate would come before one
// whose shown lists are longer. A table of its own: suspensions move table-wide state.
import '../support/own-table';
import { call } from '../support/invoke';
import { users } from '../support/posts';
import { follow } from '../support/graph';
import { suspendAccount } from '../../lib/account/suspend';
import { getUser } from '../../lib/users/repo';
import { handler as suggestedH } from '../../functions/users/suggested';

type S = { _id: string; followerBy: { _id: string }[]; mutualFollowers: { _id: string }[] };

it('ranks by the followerBy the answer shows: suspended sampled users do not count', async () => {
  const [me, s1, s2, f2, f3, f4, x, y, mod] = await users(9);
  for (const u of [s1, s2, f2, f3, f4]) await follow(me, u);
  // x is followed by two accounts about to be suspended and by f2; y by f3 and f4.
  for (const u of [s1, s2, f2]) await follow(u, x);
  for (const u of [f3, f4]) await follow(u, y);
  for (const u of [s1, s2]) await suspendAccount((await getUser(u.id))!, mod.id, { traceId: `susp-${u.id}`, scenarioId: '', stepId: '', simTimestamp: Date.now() }, {});

  const res = await call(suggestedH, 'GET /users/suggested', { token: me.token, query: { limit: '10' } });
  expect(res.status).toBe(200);
  const list = res.body.users as S[];
  const shown = list.filter((u) => [x.id, y.id].includes(u._id)).map((u) => [u._id, u.followerBy.map((b) => b._id).sort()]);
  expect(shown).toEqual([[y.id, [f3.id, f4.id].sort()], [x.id, [f2.id]]]);
  // And the whole answer is in the contract's order of what it shows.
  const sizes = list.map((u) => [u.followerBy.length, u.mutualFollowers.length]);
  expect(sizes).toEqual([...sizes].sort((a, b) => b[0]! - a[0]! || b[1]! - a[1]!));
});
