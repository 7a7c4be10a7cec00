// countedChange (lib/db/transact.ts): the count a like or follow answers comes from its own
// transaction, conditioned on the count read before it. These drive it directly on an item of
// its own, so that "the count moved between the read and the write" and "the counter is hot"
// can be made to happen rather than hoped for.
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../../lib/db/client';
import { countedChange, HOT_WINDOW_MS, type Counter, type TxItem } from '../../lib/db/transact';
import { newId } from '../../lib/ids';
import { NotFound } from '../../lib/errors';

const counterKey = (id: string) => ({ PK: `TEST#${id}`, SK: 'COUNTER' });
const edgeKey = (id: string, who: string) => ({ PK: `TEST#${id}`, SK: `EDGE#${who}` });

async function counterItem(count: number | undefined, at?: number): Promise<string> {
  const id = newId();
  await db.send(new PutCommand({ TableName: TABLE, Item: { ...counterKey(id), ...(count === undefined ? {} : { n: count }), ...(at ? { nAt: at } : {}) } }));
  return id;
}

const counter = (id: string, seen: number, seenAt?: number): Counter => ({
  key: counterKey(id), field: 'n', seen, delta: 1, onMissing: () => new NotFound('post'), stamp: { field: 'nAt', seen: seenAt },
});
const edgePut = (id: string, who: string): TxItem => ({
  op: { Put: { TableName: TABLE, Item: edgeKey(id, who), ConditionExpression: 'attribute_not_exists(PK)' } },
});
const stored = async (id: string) => (await db.send(new GetCommand({ TableName: TABLE, Key: counterKey(id), ConsistentRead: true }))).Item!;

describe('countedChange', () => {
  it('answers the count read plus one when nothing moved it, and stamps the item', async () => {
    const id = await counterItem(4);
    const edge = edgePut(id, 'a');
    const before = Date.now();
    await expect(countedChange((step) => [step, edge], edge, counter(id, 4))).resolves.toEqual({ changed: true, count: 5 });
    const item = await stored(id);
    expect(item.n).toBe(5);
    expect(item.nAt).toBeGreaterThanOrEqual(before);
  });

  it('counts an absent counter as 0', async () => {
    const id = await counterItem(undefined);
    const edge = edgePut(id, 'a');
    await expect(countedChange((step) => [step, edge], edge, counter(id, 0))).resolves.toEqual({ changed: true, count: 1 });
  });

  it('when the count moved after the read, still changes it once and answers the count after the change', async () => {
    const id = await counterItem(7); // read as 3: four changes landed in between
    const edge = edgePut(id, 'a');
    await expect(countedChange((step) => [step, edge], edge, counter(id, 3))).resolves.toEqual({ changed: true, count: 8 });
    expect((await stored(id)).n).toBe(8);
  });

  it('a repeated change is a no-op that answers the count as it stands, moved or not', async () => {
    const id = await counterItem(2);
    const edge = edgePut(id, 'a');
    await countedChange((step) => [step, edge], edge, counter(id, 2));
    await expect(countedChange((step) => [step, edge], edge, counter(id, 3))).resolves.toEqual({ changed: false, count: 3 });
    // Read stale (1) while already done: the failed count hands back the item as it stands.
    await expect(countedChange((step) => [step, edge], edge, counter(id, 1))).resolves.toEqual({ changed: false, count: 3 });
    expect((await stored(id)).n).toBe(3);
  });

  it('a hot counter (moved within the window) takes the blind ADD at once and reads the count back', async () => {
    const id = await counterItem(10, Date.now());
    const edge = edgePut(id, 'a');
    // The seen count is stale and the stamp recent: no optimistic attempt, the answer is read back.
    await expect(countedChange((step) => [step, edge], edge, counter(id, 9, Date.now() - HOT_WINDOW_MS / 2))).resolves.toEqual({ changed: true, count: 11 });
  });

  it('a missing item is the counter\'s own error', async () => {
    const id = newId();
    const edge = edgePut(id, 'a');
    await expect(countedChange((step) => [step, edge], edge, counter(id, 0))).rejects.toBeInstanceOf(NotFound);
  });

  it('twenty changes racing on one counter each commit once; the count is exact', async () => {
    const id = await counterItem(0);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => {
      const edge = edgePut(id, `u${i}`);
      return countedChange((step) => [step, edge], edge, counter(id, 0));
    }));
    expect(results.every((r) => r.changed)).toBe(true);
    expect((await stored(id)).n).toBe(20);
    // Every answer is a count the counter really had right after some change.
    for (const r of results) expect(r.count).toBeGreaterThanOrEqual(1);
    for (const r of results) expect(r.count).toBeLessThanOrEqual(20);
  });
});
