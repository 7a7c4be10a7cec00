import * as keys from '../../lib/keys';
import { shardOf, sortableNumber, FEED_SHARDS } from '../../lib/keys';

describe('sortableNumber', () => {
  it('orders any finite numbers lexically as numerically', () => {
    const values = [-1e300, -123456.789, -1, -0.5, -Number.MIN_VALUE, 0, Number.MIN_VALUE, 0.25, 1, 2, 10, 1795212111842, 1e300];
    const shuffled = [...values].sort(() => Math.random() - 0.5);
    const byKey = shuffled.map((v) => [sortableNumber(v), v] as const).sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([, v]) => v);
    expect(byKey).toEqual(values);
  });

  it('has a fixed width and treats -0 as 0', () => {
    expect(sortableNumber(42)).toHaveLength(16);
    expect(sortableNumber(-0)).toBe(sortableNumber(0));
  });

  it('agrees with numeric order on random pairs', () => {
    for (let i = 0; i < 2000; i++) {
      const a = (Math.random() - 0.5) * 10 ** Math.floor(Math.random() * 20);
      const b = (Math.random() - 0.5) * 10 ** Math.floor(Math.random() * 20);
      if (a === b) continue;
      expect(sortableNumber(a) < sortableNumber(b)).toBe(a < b);
    }
  });
});

describe('key builders', () => {
  it('spreads post ids over the feed shards', () => {
    const seen = new Set(Array.from({ length: 200 }, (_, i) => shardOf(`01J${i.toString().padStart(23, '0')}`, FEED_SHARDS)));
    expect(seen.size).toBe(FEED_SHARDS);
  });

  it('lower-cases usernames and e-mails in their claims', () => {
    expect(keys.username('AdA')).toEqual({ PK: 'USERNAME#ada', SK: 'CLAIM' });
    expect(keys.email('Ada@Example.COM').PK).toBe('EMAIL#ada@example.com');
  });

  it('keeps each actor\'s trace records in the actor\'s own range of the trace\'s partition, by writing order', () => {
    const a = keys.log('t', 'U1', '01B').SK;
    const b = keys.log('t', 'U1', '01C').SK;
    expect([b, a].sort()).toEqual([a, b]);
    for (const sk of [a, b]) expect(sk.startsWith(keys.logsBy('U1'))).toBe(true);
    expect(keys.log('t', 'U10', '01A').SK.startsWith(keys.logsBy('U1'))).toBe(false);
    expect(keys.log('t', 'U1', '01B').PK).toBe(keys.trace('t'));
  });
});
