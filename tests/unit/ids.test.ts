import { compareIds, idTime, newId } from '../../lib/ids';

describe('compareIds', () => {
  it('orders ids by creation time, then as localeCompare orders their alphabet', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      ids.push(newId());
      if (i % 10 === 9) await new Promise((r) => setTimeout(r, 2));
    }
    const sorted = [...ids].reverse().sort(compareIds);
    expect(sorted).toEqual(ids);
    for (let i = 1; i < sorted.length; i++) expect(idTime(sorted[i - 1]!)).toBeLessThanOrEqual(idTime(sorted[i]!));
    // The ranking's tie-break used localeCompare until 2026-11-26: same order, no ICU load.
    const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'.split('');
    const shuffled = [...alphabet].sort(() => Math.random() - 0.5);
    expect([...shuffled].sort(compareIds)).toEqual([...shuffled].sort((a, b) => a.localeCompare(b)));
    expect(compareIds(ids[0]!, ids[0]!)).toBe(0);
    expect(compareIds(ids[0]!, ids[1]!)).toBe(-1);
    expect(compareIds(ids[1]!, ids[0]!)).toBe(1);
  });
});
