import { nextInThread } from '../../lib/comments/timestamps';
import { isCursor } from '../../lib/comments/fields';
import { rawNumber, rawString } from '../../lib/comments/raw';

describe('nextInThread', () => {
  const t = Date.parse('2026-11-20T21:38:00.000Z');
  it('is now when the thread is empty or its last timestamp is older', () => {
    expect(nextInThread(undefined, t)).toBe('2026-11-20T21:38:00.000Z');
    expect(nextInThread('2026-11-20T21:37:59.999Z', t)).toBe('2026-11-20T21:38:00.000Z');
  });
  it('is 1 ms after the last one when that is now or later (same millisecond, clock behind)', () => {
    expect(nextInThread('2026-11-20T21:38:00.000Z', t)).toBe('2026-11-20T21:38:00.001Z');
    expect(nextInThread('2026-11-20T21:38:05.000Z', t)).toBe('2026-11-20T21:38:05.001Z');
  });
});

describe('isCursor', () => {
  it.each(['2026-11-20T21:38:00.000Z', '1999-01-01T00:00:00.999Z'])('accepts %s', (c) => expect(isCursor(c)).toBe(true));
  it.each(['2026-11-20T21:38:00Z', '2026-11-20', '2026-02-30T00:00:00.000Z', '2026-11-20T21:38:00.000+01:00', 'abc', ''])(
    'refuses %s', (c) => expect(isCursor(c)).toBe(false));
});

describe('raw attribute values of a cancelled transaction', () => {
  it('reads wire and plain forms', () => {
    expect(rawString({ a: { S: 'x' } }, 'a')).toBe('x');
    expect(rawString({ a: 'y' }, 'a')).toBe('y');
    expect(rawString({ a: { N: '1' } }, 'a')).toBeUndefined();
    expect(rawNumber({ n: { N: '3' } }, 'n')).toBe(3);
    expect(rawNumber({ n: 4 }, 'n')).toBe(4);
    expect(rawNumber(undefined, 'n')).toBeUndefined();
  });
});
