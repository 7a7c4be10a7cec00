import { addressOf, afterFailure, LOCK_MS, MAX_FAILURES, MAX_FAILURES_ALL, WINDOW_MS, waitBefore, type Guard } from '../../lib/auth/login-guard';

const MIN = 60_000;
/** The guard after failures at the given minutes (each time appended, then counted, as `failed` does). */
const failures = (minutes: number[]): Guard => minutes.reduce<Guard>((g, m) => afterFailure({ ...g, failedAt: [...(g.failedAt ?? []), m * MIN] }, m * MIN), {});

describe('login guard: 10 failures within any 15 minutes lock for 15 minutes', () => {
  it('locks at the tenth failure within 15 minutes, from that failure', () => {
    const g = failures([0, 1, 2, 3, 4, 5, 6, 7, 8, 14.9]);
    expect(g.lockedUntil).toBe(14.9 * MIN + LOCK_MS);
    expect(failures([0, 1, 2, 3, 4, 5, 6, 7, 8]).lockedUntil).toBeUndefined();
  });

  it('counts any 15 minutes, not a window fixed at the first failure', () => {
    // 9 just before minute 15 and 1 just after: 10 within 15 minutes (a fixed window reset at 15).
    const g = failures([0.5, ...Array.from({ length: 8 }, () => 14.5), 15.2]);
    expect(g.lockedUntil).toBe(15.2 * MIN + LOCK_MS);
  });

  it('forgets failures older than 15 minutes', () => {
    const g = failures([0, 1, 2, 3, 4, 5, 6, 7, 8, 15, 16]);
    expect(g.failedAt).toEqual([2, 3, 4, 5, 6, 7, 8, 15, 16].map((m) => m * MIN)); // 15 minutes old is no longer within them
    expect(g.lockedUntil).toBeUndefined();
    expect(afterFailure({ failedAt: [100 * MIN, 101 * MIN, 200 * MIN] }, 200 * MIN).failedAt).toEqual([200 * MIN]);
    expect(WINDOW_MS).toBe(15 * MIN);
  });

  it('neither ends nor extends a lock in force', () => {
    const locked = failures([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(afterFailure({ ...locked, failedAt: [...locked.failedAt!, 10 * MIN] }, 10 * MIN).lockedUntil).toBe(locked.lockedUntil);
    // After it, failures count afresh from those still within 15 minutes.
    expect(afterFailure({ ...locked, failedAt: [...locked.failedAt!, 30 * MIN] }, 30 * MIN).lockedUntil).toBeUndefined();
  });

  it('reads a guard of the earlier shape (no failedAt) as no failures', () => {
    expect(afterFailure({ windowStart: 0, failures: 9 } as unknown as Guard, MIN)).toEqual({ failedAt: [] });
    expect(waitBefore({ windowStart: 0, failures: 9 } as unknown as Guard, MIN)).toBe(0);
  });
});

describe('login guard: a check is admitted before its verdict', () => {
  it('admits while fewer than 10 failed or running checks are within 15 minutes', () => {
    expect(waitBefore(undefined, 0)).toBe(0);
    const nine = Array.from({ length: MAX_FAILURES - 1 }, (_, i) => i * MIN);
    expect(waitBefore({ failedAt: nine }, 10 * MIN)).toBe(0);
  });

  it('refuses the eleventh until the oldest of the newest ten leaves the window', () => {
    const ten = Array.from({ length: MAX_FAILURES }, (_, i) => i * MIN);
    // At minute 10 the oldest (minute 0) leaves the window at minute 15: 5 minutes to wait.
    expect(waitBefore({ failedAt: ten }, 10 * MIN)).toBe(5 * 60);
    expect(waitBefore({ failedAt: ten }, 15 * MIN)).toBe(0); // minute 0 has left: 9 remain
    // Ten checks sent at the same moment, none ended yet: the next waits the whole window.
    expect(waitBefore({ failedAt: Array.from({ length: 10 }, () => 7 * MIN) }, 7 * MIN)).toBe(15 * 60);
  });

  it('reads the set\'s marks (epoch ms x 1000 plus 0-999) as their times, beside a list of the earlier shape', () => {
    const marks = new Set(Array.from({ length: 9 }, (_, i) => i * MIN * 1000 + 999));
    expect(waitBefore({ checks: marks }, 10 * MIN)).toBe(0);
    // A tenth within the window, from the old list: the oldest mark (minute 0) leaves at minute 15.
    expect(waitBefore({ checks: marks, failedAt: [9.5 * MIN] }, 10 * MIN)).toBe(5 * 60);
    expect(afterFailure({ checks: marks, failedAt: [9.5 * MIN] }, 10 * MIN).lockedUntil).toBe(10 * MIN + LOCK_MS);
  });

  it('refuses during a lock until its end, however few times the list holds', () => {
    expect(waitBefore({ failedAt: [], lockedUntil: 20 * MIN }, 10 * MIN)).toBe(10 * 60);
    expect(waitBefore({ failedAt: [], lockedUntil: 20 * MIN }, 20 * MIN)).toBe(0);
  });
});

describe('login guard: the limit for all addresses together', () => {
  it('admits up to 99 failed or running checks and locks at the hundredth', () => {
    const times = (n: number) => Array.from({ length: n }, (_, i) => i * 1000);
    expect(waitBefore({ failedAt: times(MAX_FAILURES_ALL - 1) }, MIN, MAX_FAILURES_ALL)).toBe(0);
    expect(waitBefore({ failedAt: times(MAX_FAILURES_ALL) }, MIN, MAX_FAILURES_ALL)).toBeGreaterThan(0);
    expect(afterFailure({ failedAt: times(MAX_FAILURES_ALL - 1) }, MIN, MAX_FAILURES_ALL).lockedUntil).toBeUndefined();
    expect(afterFailure({ failedAt: times(MAX_FAILURES_ALL) }, MIN, MAX_FAILURES_ALL).lockedUntil).toBe(MIN + LOCK_MS);
  });
});

describe('login guard: the source address a guard is kept for', () => {
  it('keeps an IPv4 address as it is, an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(addressOf('203.0.113.7')).toBe('203.0.113.7');
    expect(addressOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressOf(undefined)).toBe('unknown');
    expect(addressOf('')).toBe('unknown');
  });

  it('counts an IPv6 address by its /64, however it is written', () => {
    expect(addressOf('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressOf('2001:0DB8:0001:0002:ffff:0:0:1')).toBe('2001:db8:1:2::/64');
    expect(addressOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressOf('::1')).toBe('0:0:0:0::/64');
    expect(addressOf('2001:db8:1:3::1')).not.toBe(addressOf('2001:db8:1:2::1'));
  });
});
