import { afterFailure, LOCK_MS, MAX_FAILURES, WINDOW_MS, type Guard } from '../../lib/auth/login-guard';

const MIN = 60_000;
/** The guard after failures at the given minutes. */
const failures = (minutes: number[]): Guard => minutes.reduce<Guard>((g, m) => afterFailure(g, m * MIN), {});

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

  it('forgets failures older than 15 minutes and keeps at most 10 times', () => {
    const g = failures([0, 1, 2, 3, 4, 5, 6, 7, 8, 15, 16]);
    expect(g.failedAt).toEqual([2, 3, 4, 5, 6, 7, 8, 15, 16].map((m) => m * MIN)); // 15 minutes old is no longer within them
    expect(g.lockedUntil).toBeUndefined();
    const many = failures(Array.from({ length: 30 }, (_, i) => 100 + i * 0.1));
    expect(many.failedAt).toHaveLength(MAX_FAILURES);
    expect(afterFailure(many, 200 * MIN).failedAt).toEqual([200 * MIN]);
    expect(WINDOW_MS).toBe(15 * MIN);
  });

  it('neither ends nor extends a lock in force', () => {
    const locked = failures([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(afterFailure(locked, 10 * MIN).lockedUntil).toBe(locked.lockedUntil);
    // After it, failures count afresh from those still within 15 minutes.
    expect(afterFailure(locked, 30 * MIN).lockedUntil).toBeUndefined();
  });

  it('reads a guard of the earlier shape (no failedAt) as no failures', () => {
    expect(afterFailure({ windowStart: 0, failures: 9 } as unknown as Guard, MIN)).toEqual({ failedAt: [MIN] });
  });
});
