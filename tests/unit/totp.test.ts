// TOTP as RFC 6238 (lib/auth/totp.ts), against the SHA-1 test vectors of its Appendix B.
import { codeAt, matchStep, newSecret, otpauthUrl, stepAt } from '../../lib/auth/totp';

// RFC 6238's SHA-1 seed: the ASCII of "12345678901234567890", in base32.
const SEED = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
// Appendix B, SHA-1: time (s) -> 8-digit TOTP.
const VECTORS: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238, SHA-1, 30 s steps)', () => {
  it.each(VECTORS)('at %i s the 8-digit code is %s, and the 6-digit code its last six digits', (t, code) => {
    expect(codeAt(SEED, stepAt(t * 1000), 8)).toBe(code);
    expect(codeAt(SEED, stepAt(t * 1000))).toBe(code.slice(-6));
  });

  it('accepts a code in its step and one step either side, not two', () => {
    const now = 1111111111 * 1000;
    const step = stepAt(now);
    expect(matchStep(SEED, codeAt(SEED, step), now)).toBe(step);
    expect(matchStep(SEED, codeAt(SEED, step - 1), now)).toBe(step - 1);
    expect(matchStep(SEED, codeAt(SEED, step + 1), now)).toBe(step + 1);
    expect(matchStep(SEED, codeAt(SEED, step - 2), now)).toBeUndefined();
    expect(matchStep(SEED, codeAt(SEED, step + 2), now)).toBeUndefined();
    expect(matchStep(SEED, '000000', now)).toBeUndefined();
  });

  it('refuses a code of a step at or before the last accepted one', () => {
    const now = 1234567890 * 1000;
    const step = stepAt(now);
    expect(matchStep(SEED, codeAt(SEED, step), now, step)).toBeUndefined();
    expect(matchStep(SEED, codeAt(SEED, step - 1), now, step - 1)).toBeUndefined();
    expect(matchStep(SEED, codeAt(SEED, step + 1), now, step)).toBe(step + 1);
  });

  it('makes secrets of 160 random bits in base32, and an otpauth URL with them', () => {
    const a = newSecret();
    expect(a).toMatch(/^[A-Z2-7]{32}$/);
    expect(newSecret()).not.toBe(a);
    const url = new URL(otpauthUrl(a, 'ada.lovelace'));
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe('/Aperture:ada.lovelace');
    expect(Object.fromEntries(url.searchParams)).toEqual({ issuer: 'Aperture', secret: a, algorithm: 'SHA1', digits: '6', period: '30' });
  });
});
