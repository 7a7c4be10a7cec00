// Cold starts restated (issue 47, item 3): a function's cold-start overhead is its first cold
// answer minus the same request's warm p50, checked against 1.5x the baseline's; the first
// answer's own 2x check (issue 19, target 4) is gone.
/* eslint-disable @typescript-eslint/no-require-imports */
const { withOverheads, warmRowOf, warmMedian, overheadTable } = require('../../scripts/bench/overhead.mjs');
const { checks } = require('../../scripts/bench/report.mjs');
/* eslint-enable @typescript-eslint/no-require-imports */

const ok = (p50Ms: number) => ({ status: 'ok', p50Ms, p95Ms: p50Ms, dbCalls: 2, dbRoundTrips: 2, rcu: 1, wcu: 0 });
const result = (bundles: Record<string, Record<string, unknown>>, baseline: Record<string, unknown> = { bytes: 1000, requireMs: 30, firstMs: 20, warmP50Ms: 4 }) => ({
  scales: [{
    name: '1x',
    endpoints: {
      'POST /auth/login': ok(250),
      'GET /users/{identifier}/followers': ok(20),
      'GET /users/{identifier}/followers (by username)': ok(90),
      'POST /users/follow/{identifier} (by id)': ok(30),
    },
  }],
  baseline,
  bundles,
});

describe('withOverheads', () => {
  it('takes a function\'s warm p50 from its route\'s first row on the first scale, whatever its parameter names', () => {
    const r = withOverheads(result({
      authLogin: { bytes: 1000, requireMs: 30, firstMs: 290, route: 'POST /auth/login' },
      usersFollowers: { bytes: 1000, requireMs: 30, firstMs: 50, route: 'GET /users/{id}/followers' },
      usersFollow: { bytes: 1000, requireMs: 30, firstMs: 60, route: 'POST /users/follow/{target}' },
      docsOpenapi: { bytes: 1000, requireMs: 30, firstMs: 9, route: 'GET /openapi.json' },
    }));
    expect(r.baseline.overheadMs).toBe(16);
    expect(r.bundles.authLogin).toMatchObject({ warmP50Ms: 250, overheadMs: 40, warmRoute: 'POST /auth/login' });
    expect(r.bundles.usersFollowers).toMatchObject({ warmP50Ms: 20, overheadMs: 30, warmRoute: 'GET /users/{identifier}/followers' });
    expect(r.bundles.usersFollow.overheadMs).toBe(30);
    expect(r.bundles.docsOpenapi.overheadMs).toBeUndefined();
    expect(warmRowOf(r, 'GET /nowhere')).toBeUndefined();
  });

  it('compares no cold request that failed: it did not do the warm row\'s work', () => {
    const r = withOverheads(result({ authLogin: { bytes: 1000, requireMs: 30, firstMs: 3, status: 401, route: 'POST /auth/login' } }));
    expect(r.bundles.authLogin.overheadMs).toBeUndefined();
    expect(checks(r, [])).toContain('(not compared: authLogin (cold answer 401))');
  });

  it('leaves a run without cold starts (--no-init) as it was', () => {
    const r = withOverheads(result({ postsGet: { bytes: 1000, route: 'GET /posts/{post_id}' } }, { bytes: 1000 }));
    expect(r.baseline.overheadMs).toBeUndefined();
    expect(r.bundles.postsGet.overheadMs).toBeUndefined();
  });
});

describe('check (d), restated', () => {
  it('passes a function whose first answer is far over 2x the baseline\'s when its overhead is within 1.5x (a login\'s scrypt is work, not cold start)', () => {
    const out = checks(withOverheads(result({ authLogin: { bytes: 1000, requireMs: 30, firstMs: 270, route: 'POST /auth/login' } })), []);
    expect(out).toContain('PASS (d) cold-start overhead (first cold answer - warm p50) <= 1.5x baseline (16 ms) on 1 functions');
    expect(out).not.toContain('first answer, cold, <= 2x');
  });

  it('fails a function whose overhead is over 1.5x the baseline\'s, naming it with its overhead', () => {
    const out = checks(withOverheads(result({ authLogin: { bytes: 1000, requireMs: 30, firstMs: 275, route: 'POST /auth/login' } })), []);
    expect(out).toContain('FAIL (d) cold-start overhead (first cold answer - warm p50) <= 1.5x baseline (16 ms) on 1 functions: authLogin 25 ms (1.56x)');
  });

  it('keeps requireMs at 1.25x the baseline\'s, and names the functions without a warm row', () => {
    const out = checks(withOverheads(result({
      authLogin: { bytes: 1000, requireMs: 38, firstMs: 260, route: 'POST /auth/login' },
      docsOpenapi: { bytes: 1000, requireMs: 30, firstMs: 9, route: 'GET /openapi.json' },
    })), []);
    expect(out).toContain('FAIL (d) requireMs (median over rounds) <= 1.25x baseline (30 ms): authLogin 1.27x');
    expect(out).toContain('(not compared: docsOpenapi)');
  });

  it('says when the baseline\'s warm median is missing instead of checking against nothing', () => {
    const out = checks(withOverheads(result({ authLogin: { bytes: 1000, requireMs: 30, firstMs: 260, route: 'POST /auth/login' } }, { bytes: 1000, requireMs: 30, firstMs: 20 })), []);
    expect(out).toContain('SKIP (d) cold-start overhead: the baseline\'s warm median not measured');
  });
});

describe('warmMedian and the table', () => {
  it('times the calls after the warm-up only: the median of the timed ones', async () => {
    // A clock of our own: each call takes the time its place says (no real timing in a test).
    let now = 0;
    const clock = jest.spyOn(performance, 'now').mockImplementation(() => now);
    const took = [100, 100, 5, 7, 6];
    let calls = 0;
    const handler = async () => {
      now += took[calls++] ?? 0;
    };
    try {
      expect(await warmMedian(handler, () => ({}), { warmup: 2, iterations: 3 })).toBe(6);
      expect(calls).toBe(5);
    } finally {
      clock.mockRestore();
    }
  });

  it('shows each function\'s overhead beside the baseline\'s', () => {
    const table = overheadTable(withOverheads(result({ authLogin: { bytes: 1000, requireMs: 30, firstMs: 290, route: 'POST /auth/login' } })));
    expect(table).toContain('authLogin');
    expect(table).toMatch(/\(baseline\)\s+20\.0\s+4\.0\s+16\.0\s+1\.00/);
    expect(table).toMatch(/authLogin\s+290\.0\s+250\.0\s+40\.0\s+2\.50/);
  });
});
