// The shared most-followed list (lib/graph/popular.ts): a ranking of suggestions takes it from
// one item read beside the caller's cached ranking, or from the list its instance holds, and
// reads the GSI3 shards only when neither is younger than POPULAR_TOP.maxAgeMs; then it writes
// the item again. A table of its own (imported first): the most-followed are table-wide.
import '../support/own-table';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../../lib/db/client';
import { call } from '../support/invoke';
import { getItem, requestsOf } from '../support/db';
import { follow, users } from '../support/graph';
import * as keys from '../../lib/keys';
import { INDEX } from '../../lib/keys';
import { POPULAR_TOP } from '../../lib/graph/popular';
import { SUGGEST_BOUNDS } from '../../lib/graph/suggest';
import { handler as suggestedH, query } from '../../functions/users/suggested';

type U = { _id: string };
const ask = (u: { token: string }) => call(suggestedH, 'GET /users/suggested', { token: u.token, query: { limit: '5' } });
const ids = (list: U[]) => list.map((u) => u._id);
type Input = { IndexName?: string; RequestItems?: Record<string, { Keys: { PK: string; SK: string }[] }> };
const shardQueries = (inputs: Input[]) => inputs.filter((i) => i.IndexName === INDEX.POPULAR);
const readsTopItem = (inputs: Input[]) => inputs.some((i) => Object.values(i.RequestItems ?? {})
  .some((t) => t.Keys.some((k) => k.PK === keys.popularTop().PK && k.SK === keys.popularTop().SK)));

/** Date.now() moved to `at` for what `run` does (jose's token checks read the real clock). */
async function at<T>(ms: number, run: () => Promise<T>): Promise<T> {
  const clock = jest.spyOn(Date, 'now').mockReturnValue(ms);
  try {
    return await run();
  } finally {
    clock.mockRestore();
  }
}

describe('the shared most-followed list', () => {
  it('keeps as many accounts as the deepest ranking the endpoint accepts (its largest limit and the slack)', () => {
    let largest = 0;
    for (let n = 1; n <= 1000; n++) if (query.safeParse({ limit: String(n) }).success) largest = n;
    expect(largest + SUGGEST_BOUNDS.slack).toBe(POPULAR_TOP.size);
  });

  let stars: U[];
  let t = Date.now();

  beforeAll(async () => {
    // Three accounts followed by 1, 2 and 3 fans: the only followed accounts of this table.
    const [a, b, c, ...fans] = await users(6);
    const done = await Promise.all([follow(fans[0]!, a), follow(fans[0]!, b), follow(fans[1]!, b), ...fans.map((f) => follow(f, c))]);
    expect(done.every((r) => r.status === 200)).toBe(true);
    stars = [c, b, a].map((s) => ({ _id: s.id }));
  });

  it('a list older than the bound is read from the shards and written back, and the instance holds it', async () => {
    t += POPULAR_TOP.maxAgeMs + 1;
    const [caller] = await users(1);
    const { result, inputs } = await at(t, () => requestsOf(() => ask(caller)));
    expect(result.status).toBe(200);
    // Every user is in GSI3: accounts without followers fill the answer after the three.
    expect(ids(result.body.users).slice(0, 3)).toEqual(ids(stars));
    expect(shardQueries(inputs as Input[])).toHaveLength(4);
    const item = await getItem(keys.popularTop());
    expect(item).toMatchObject({ type: 'POPULAR_TOP', computedAt: t });
    expect((item!.top as string[]).slice(0, 3)).toEqual([`${stars[0]!._id}|3`, `${stars[1]!._id}|2`, `${stars[2]!._id}|1`]);
    expect((item!.top as string[]).length).toBeLessThanOrEqual(POPULAR_TOP.size);
  });

  it('a list younger than the bound is served as it is: an account followed since shows once the bound has passed', async () => {
    const [caller, later, newStar, ...fans] = await users(7);
    const done = await Promise.all(fans.map((f) => follow(f, newStar)));
    expect(done.every((r) => r.status === 200)).toBe(true);
    // Within the bound: the held list, not the shards, and not the item either.
    const { result, inputs } = await at(t + POPULAR_TOP.maxAgeMs - 1, () => requestsOf(() => ask(caller)));
    expect(ids(result.body.users).slice(0, 3)).toEqual(ids(stars));
    expect(ids(result.body.users)).not.toContain(newStar.id);
    expect(shardQueries(inputs as Input[])).toEqual([]);
    expect(readsTopItem(inputs as Input[])).toBe(false);
    // Past it: the shards again, the 4 fans' account first.
    t += POPULAR_TOP.maxAgeMs;
    const after = await at(t, () => requestsOf(() => ask(later)));
    expect(ids(after.result.body.users).slice(0, 4)).toEqual([newStar.id, ...ids(stars)]);
    expect(shardQueries(after.inputs as Input[])).toHaveLength(4);
    expect((await getItem(keys.popularTop()))!.computedAt).toBe(t);
  });

  it('an instance holding no young list takes the item read beside the cached ranking, not the shards', async () => {
    // The list held is past the bound; the item, written a moment ago by another instance, is
    // not. Its list differs from the shards' on purpose: the answer shows which one was used.
    t += POPULAR_TOP.maxAgeMs + 1;
    await db.send(new PutCommand({
      TableName: TABLE,
      Item: { ...keys.popularTop(), type: 'POPULAR_TOP', computedAt: t - 1000, top: [`${stars[2]!._id}|1`], expiresAt: Math.floor(t / 1000) + 86_400 },
    }));
    const [caller, again] = await users(2);
    const { result, inputs } = await at(t, () => requestsOf(() => ask(caller)));
    expect(ids(result.body.users)).toEqual([stars[2]!._id]);
    expect(readsTopItem(inputs as Input[])).toBe(true);
    expect(shardQueries(inputs as Input[])).toEqual([]);
    // Now held: the next ranking on this instance reads it from neither.
    const next = await at(t + 1, () => requestsOf(() => ask(again)));
    expect(ids(next.result.body.users)).toEqual([stars[2]!._id]);
    expect(readsTopItem(next.inputs as Input[])).toBe(false);
    expect(shardQueries(next.inputs as Input[])).toEqual([]);
  });

  it('an item this code did not write, or dated ahead of the clock, is taken as absent: the shards are read and the list written again', async () => {
    const one = `${stars[2]!._id}|1`;
    // Each would otherwise answer stars[2] alone (a young list of one), as in the test above.
    const odd: [string, (now: number) => Record<string, unknown>][] = [
      ['dated 10 minutes ahead', (now) => ({ computedAt: now + 600_000, top: [one] })],
      ['no list', (now) => ({ computedAt: now - 1000, top: 'not a list' })],
      ['an entry without a count', (now) => ({ computedAt: now - 1000, top: [stars[2]!._id] })],
      ['an entry of three fields', (now) => ({ computedAt: now - 1000, top: [`${one}|x`] })],
      ['an entry that is not a string', (now) => ({ computedAt: now - 1000, top: [7] })],
      ['no date', () => ({ computedAt: 'soon', top: [one] })],
    ];
    for (const [what, item] of odd) {
      t += POPULAR_TOP.maxAgeMs + 1;
      await db.send(new PutCommand({ TableName: TABLE, Item: { ...keys.popularTop(), type: 'POPULAR_TOP', ...item(t) } }));
      const [caller] = await users(1);
      const { result, inputs } = await at(t, () => requestsOf(() => ask(caller)));
      expect([what, result.status, ids(result.body.users).length]).toEqual([what, 200, 5]);
      expect([what, shardQueries(inputs as Input[]).length]).toEqual([what, 4]);
      expect([what, (await getItem(keys.popularTop()))!.computedAt]).toEqual([what, t]);
    }
  });
});
