// The cold starts' order (scripts/bench/order.mjs): every round runs each target once, in an
// order of its own, repeatable from its seed, so no target (the baseline included) keeps one
// place in the round.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { roundOrders } = require('../../scripts/bench/order.mjs');

describe('roundOrders', () => {
  const orders: number[][] = roundOrders(52, 15, 19);

  it('runs every target exactly once in each round', () => {
    expect(orders).toHaveLength(15);
    for (const order of orders) expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: 52 }, (_, i) => i));
  });

  it('gives the rounds different orders, and the baseline (target 0) different places', () => {
    expect(new Set(orders.map((o) => o.join(','))).size).toBe(15);
    expect(new Set(orders.map((o) => o.indexOf(0))).size).toBeGreaterThan(5);
  });

  it('spreads every target over the round: its mean place is near the middle', () => {
    // 2,000 rounds of 52: a target's mean place is 25.5 give or take about 0.35 (sd 15 / sqrt 2000).
    const many: number[][] = roundOrders(52, 2000, 7);
    for (let t = 0; t < 52; t++) {
      const mean = many.reduce((sum, o) => sum + o.indexOf(t), 0) / many.length;
      expect(Math.abs(mean - 25.5)).toBeLessThan(2);
    }
  });

  it('keeps the targets\' own order in every round with seed 0', () => {
    expect(roundOrders(4, 3, 0)).toEqual([[0, 1, 2, 3], [0, 1, 2, 3], [0, 1, 2, 3]]);
  });

  it('repeats itself from the same seed and not from another', () => {
    expect(roundOrders(52, 15, 19)).toEqual(orders);
    expect(roundOrders(52, 15, 20)).not.toEqual(orders);
  });
});
