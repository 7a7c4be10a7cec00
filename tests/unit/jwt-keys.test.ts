// The JWT key set (lib/auth/keys.ts): what a parameter value must be, and how a function
// keeps it (first read, cache, re-read, failures), on a clock the test moves. The SSM side is
// tests/integration/jwt-keys.test.ts.
import { InvalidKeySet, KeyStore, MAX_KEYS, parseKeySet, type KeySet } from '../../lib/auth/keys';
import { loadConfig } from '../../lib/config';

const A = 'a'.repeat(32);
const B = 'b'.repeat(40);
const text = (v: unknown) => JSON.stringify(v);
const parse = (v: unknown, deployed = true) => parseKeySet(typeof v === 'string' ? v : text(v), 'SSM parameter /aperture/t/jwt-keys', { deployed });

describe('parseKeySet', () => {
  it('gives the current kid, its key, and every key by kid', () => {
    const set = parse({ current: 'k2', keys: { k1: A, k2: B } });
    expect(set.current).toBe('k2');
    expect(Buffer.from(set.signingKey).toString()).toBe(B);
    expect([...set.keys.keys()].sort()).toEqual(['k1', 'k2']);
    expect(Buffer.from(set.keys.get('k1')!).toString()).toBe(A);
  });

  it.each([
    ['not JSON', '{"current":', /not JSON/],
    ['an array', [], /\(root\) must be an object/],
    ['no current', { keys: { k1: A } }, /current/],
    ['current not in keys', { current: 'k2', keys: { k1: A } }, /"current" names "k2", which is not in "keys"/],
    ['no keys', { current: 'k1', keys: {} }, /"keys" is empty/],
    ['a secret under 32 characters', { current: 'k1', keys: { k1: 'x'.repeat(31) } }, /keys\.k1 must be a secret of at least 32 characters/],
    ['a secret that is not a string', { current: 'k1', keys: { k1: 12345 } }, /keys\.k1 must be a string/],
    ['a kid with a space', { current: 'k 1', keys: { 'k 1': A } }, /current must be a kid/],
    ['a kid of 65 characters', { current: 'k', keys: { k: A, ['y'.repeat(65)]: B } }, /keys has a kid that must be a kid .* \(not shown\)/],
    ['a secret where a kid belongs', { current: 'k', keys: { k: A, [`${'x'.repeat(31)}/+=`]: 'k2' } }, /\(not shown\)/],
    ['a secret as a field name', { current: 'k', keys: { k: A }, [`${'x'.repeat(31)}/+=`]: 'k2' }, /unknown fields \(not shown\)/],
    ['an unknown field', { current: 'k1', keys: { k1: A }, previous: 'k0' }, /unknown fields "previous"/],
    ['two kids with one secret', { current: 'k1', keys: { k1: A, k2: A } }, /two kids share one secret/],
    [`more than ${MAX_KEYS} keys`, { current: 'k0', keys: Object.fromEntries(Array.from({ length: MAX_KEYS + 1 }, (_, i) => [`k${i}`, `${i}`.repeat(32)])) }, /more than/],
    ['the development key on a deployed stage', { current: 'k1', keys: { k1: 'aperture-local-development-secret-do-not-use-in-aws' } }, /development key/],
  ])('refuses %s, saying where and why, never the secret', (_why, value, reason) => {
    let thrown: unknown;
    try { parse(value); } catch (err) { thrown = err; }
    expect(thrown).toBeInstanceOf(InvalidKeySet);
    const message = (thrown as Error).message;
    expect(message).toMatch(/^The JWT key set of SSM parameter \/aperture\/t\/jwt-keys is invalid: /);
    expect(message).toMatch(reason);
    expect(message).not.toContain(A);
    expect(message).not.toContain('x'.repeat(31));
  });

  it('takes the development key on the local stage only', () => {
    const dev = { current: 'local-1', keys: { 'local-1': 'aperture-local-development-secret-do-not-use-in-aws' } };
    expect(parse(dev, false).current).toBe('local-1');
    expect(() => parse(dev, true)).toThrow(InvalidKeySet);
  });
});

describe('KeyStore', () => {
  const set = (current: string): KeySet => parse({ current, keys: { [current]: `${current}-`.padEnd(32, 'x') } });
  let now: number;
  let loads: number;
  let next: () => Promise<KeySet>;
  const store = (ttlMs = 300_000) => new KeyStore(async () => { loads++; return next(); }, ttlMs, 'test', () => now);
  beforeEach(() => { now = 1_000_000; loads = 0; });

  it('reads on first use, once for concurrent callers, and keeps the set for the cache interval', async () => {
    next = async () => set('k1');
    const s = store();
    const [a, b] = await Promise.all([s.get(), s.get()]);
    expect(a).toBe(b);
    expect(loads).toBe(1);
    now += 299_999;
    expect((await s.get()).current).toBe('k1');
    expect(loads).toBe(1);
  });

  it('reads again once the interval has passed, and serves the new set (a rotation without a restart)', async () => {
    next = async () => set('k1');
    const s = store();
    await s.get();
    next = async () => set('k2');
    now += 300_000;
    expect((await s.get()).current).toBe('k2');
    expect(loads).toBe(2);
  });

  it('keeps the set it has when a re-read fails, logs it, and tries again after 30 s (not on every request)', async () => {
    next = async () => set('k1');
    const s = store();
    await s.get();
    const lines: string[] = [];
    const spies = [jest.spyOn(process.stdout, 'write'), jest.spyOn(process.stderr, 'write')].map((spy) => spy.mockImplementation((line) => { lines.push(String(line)); return true; }));
    try {
      next = async () => { throw new Error('GetParameter: ThrottlingException'); };
      now += 300_000;
      expect((await s.get()).current).toBe('k1');
      expect(loads).toBe(2);
      now += 29_999;
      await s.get();
      expect(loads).toBe(2);
      // A malformed value is an ERROR line (the next cold start will not survive it), a transport failure a WARN.
      next = async () => { throw new InvalidKeySet('The JWT key set of test is invalid: "keys" is empty'); };
      now += 1;
      expect((await s.get()).current).toBe('k1');
      expect(loads).toBe(3);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged).toEqual([
      expect.objectContaining({ level: 'WARN', event: 'jwt_keys_reread_failed', source: 'test', keptKid: 'k1', message: 'GetParameter: ThrottlingException' }),
      expect.objectContaining({ level: 'ERROR', event: 'jwt_keys_reread_failed', error: 'InvalidKeySet' }),
    ]);
    next = async () => set('k2');
    now += 30_000;
    expect((await s.get()).current).toBe('k2');
  });

  it('fails a first read (no set to fall back on: nothing is signed or verified), and tries again a second later', async () => {
    next = async () => { throw new Error('GetParameter: AccessDeniedException'); };
    const s = store();
    await expect(s.get()).rejects.toThrow('AccessDeniedException');
    // The error envelope's second look at the token, or the next request within the second, does not call SSM again.
    await expect(s.get()).rejects.toThrow('AccessDeniedException');
    expect(loads).toBe(1);
    now += 1000;
    next = async () => set('k1');
    expect((await s.get()).current).toBe('k1');
    expect(loads).toBe(2);
  });
});

describe('configuration of the keys (lib/config.ts)', () => {
  const deployed = { STAGE: 'prod', MEDIA_BUCKET: 'b', MEDIA_PUBLIC_URL: 'https://cdn.example' };

  it('a deployed stage names its SSM parameter, and nothing else', () => {
    expect(loadConfig({ ...deployed, JWT_KEYS_PARAMETER: '/aperture/prod/jwt-keys' }).jwtKeys).toEqual({
      parameter: '/aperture/prod/jwt-keys', inline: undefined, cacheSeconds: 300, ssmEndpoint: undefined,
    });
    expect(loadConfig({ ...deployed, JWT_KEYS_PARAMETER: '/aperture/prod/jwt-keys', JWT_KEYS_CACHE_SECONDS: '60' }).jwtKeys.cacheSeconds).toBe(60);
  });

  it.each([
    ['no parameter', {}, /needs JWT_KEYS_PARAMETER/],
    ['a secret in JWT_SECRET', { JWT_KEYS_PARAMETER: '/aperture/prod/jwt-keys', JWT_SECRET: B }, /never from JWT_SECRET or JWT_KEYS/],
    ['a key set in JWT_KEYS', { JWT_KEYS_PARAMETER: '/aperture/prod/jwt-keys', JWT_KEYS: text({ current: 'k', keys: { k: B } }) }, /never from JWT_SECRET or JWT_KEYS/],
    ['a parameter name without its slash', { JWT_KEYS_PARAMETER: 'aperture/prod/jwt-keys' }, /SSM parameter name/],
    ['a cache interval of 0', { JWT_KEYS_PARAMETER: '/aperture/prod/jwt-keys', JWT_KEYS_CACHE_SECONDS: '0' }, /JWT_KEYS_CACHE_SECONDS/],
  ])('a deployed stage does not start with %s', (_why, env, reason) => {
    expect(() => loadConfig({ ...deployed, ...env })).toThrow(reason);
  });

  it('the local stage uses config/local.json, or JWT_KEYS, or a parameter', () => {
    expect(loadConfig({ STAGE: 'local' }).jwtKeys.inline).toEqual({ json: expect.stringContaining('"current":"local-1"'), source: 'config/local.json' });
    const keys = text({ current: 't', keys: { t: B } });
    expect(loadConfig({ STAGE: 'local', JWT_KEYS: keys }).jwtKeys.inline).toEqual({ json: keys, source: 'JWT_KEYS' });
    expect(loadConfig({ STAGE: 'local', JWT_KEYS_PARAMETER: '/aperture/local/jwt-keys' }).jwtKeys).toMatchObject({ parameter: '/aperture/local/jwt-keys', inline: undefined });
    expect(() => loadConfig({ STAGE: 'local', JWT_KEYS: keys, JWT_KEYS_PARAMETER: '/aperture/local/jwt-keys' })).toThrow(/not both/);
  });
});
