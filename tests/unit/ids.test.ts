import { ID_PATTERN, compareIds, idTime, newId, newSecretId } from '../../lib/ids';

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

describe('newSecretId', () => {
  it('carries its millisecond, and random bits of its own even beside ids of the same millisecond', () => {
    const random = (id: string) => id.slice(10);
    const close = (a: string, b: string) => {
      const B32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
      const n = (s: string) => [...s].reduce((v, c) => v * 32n + BigInt(B32.indexOf(c)), 0n);
      const d = n(random(a)) - n(random(b));
      return d >= -1000n && d <= 1000n;
    };
    for (let i = 0; i < 200; i++) {
      const before = Date.now();
      const id = newId();
      const secret = newSecretId();
      const after = newId();
      expect(secret).toMatch(ID_PATTERN);
      expect(idTime(secret)).toBeGreaterThanOrEqual(before);
      expect(idTime(secret)).toBeLessThanOrEqual(Date.now());
      // newId counts up within a millisecond; the secret id is never within 1000 of its neighbours.
      expect(close(secret, id)).toBe(false);
      expect(close(secret, after)).toBe(false);
    }
  });
});
