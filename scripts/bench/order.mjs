// The order of one round of cold starts (scripts/bench.mjs). Within a round the machine is not
// the same from start to end: a write's cold start is followed by its stream reactions
// (scripts/bench/settle.mjs), after which DynamoDB Local's JVM may stay busy for a while. In a
// fixed order that lands on the same functions in every round and never on the baseline, which
// always ran first. Each round therefore runs the baseline and the bundles in an order of its
// own, drawn from a seed the JSON records, so a run can be repeated (seed 0: the fixed order).
// Measured on 2026-11-27 (docs/PERFORMANCE.md, "Cold starts in rounds of their own order"): two
// runs in the fixed order had 16 and 12 bundles over 1.25x the baseline's requireMs, one
// shuffled run 5; too few runs to tell the order's share from the machine's.

/** mulberry32: a small deterministic generator of numbers in [0, 1). */
export function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The order of `count` targets (their indexes) in each of `rounds` rounds: a shuffle per round; seed 0, the targets' own order in every round. */
export function roundOrders(count, rounds, seed) {
  if (seed === 0) return Array.from({ length: rounds }, () => Array.from({ length: count }, (_, i) => i));
  const next = generator(seed);
  return Array.from({ length: rounds }, () => {
    const order = Array.from({ length: count }, (_, i) => i);
    // Fisher-Yates.
    for (let i = count - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    return order;
  });
}
