// The trending ranking (contract section 19) as a pure function: the rise against the day before.
import { hourOf, rankTrends, type TrendCandidate } from '../../lib/tags/trends';

const c = (name: string, authors: number, before: number, postsCount = 0): TrendCandidate => ({ name, authors, before, postsCount });

describe('rankTrends', () => {
  it('ranks by accounts of the last 24 hours minus those of the 24 before, not by the count alone', () => {
    const ranked = rankTrends([c('steady', 100, 98), c('rising', 20, 2), c('new', 5, 0), c('falling', 30, 60)]);
    expect(ranked.map((t) => t.name)).toEqual(['rising', 'new', 'steady', 'falling']);
    expect(ranked[0]).toEqual({ name: 'rising', postsCount: 0, authors: 20 });
  });

  it('needs at least 3 accounts in the last 24 hours', () => {
    expect(rankTrends([c('two', 2, 0), c('three', 3, 0)]).map((t) => t.name)).toEqual(['three']);
  });

  it('breaks ties by more posts, then by name in code-point order, and keeps 10', () => {
    const ranked = rankTrends([c('b', 5, 1, 7), c('a', 4, 0, 7), c('z', 6, 2, 9), ...Array.from({ length: 12 }, (_, i) => c(`x${i}`, 3, 3))]);
    expect(ranked.map((t) => t.name).slice(0, 3)).toEqual(['z', 'a', 'b']);
    expect(ranked).toHaveLength(10);
    expect(ranked.slice(3).map((t) => t.name)).toEqual(['x0', 'x1', 'x10', 'x11', 'x2', 'x3', 'x4']);
  });

  it('buckets by UTC hour', () => {
    expect(hourOf(Date.parse('2026-11-29T11:59:59.999Z'))).toBe('2026-11-29T11');
  });
});
