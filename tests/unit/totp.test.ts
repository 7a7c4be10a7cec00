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

// The HOTP core, base32 and the URL were otpauth's; otpauth stays a development dependency as
// the reference they are run beside (docs/OPERATIONS.md, "Bundle budget").
describe('beside otpauth', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { HOTP, Secret, TOTP } = require('otpauth') as typeof import('otpauth');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fc = require('fast-check') as typeof import('fast-check');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { fromBase32, toBase32 } = require('../../lib/auth/totp') as typeof import('../../lib/auth/totp');

  it('encodes and decodes base32 as otpauth does, for any bytes', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
      const text = toBase32(bytes);
      expect(text).toBe(new Secret({ buffer: Uint8Array.from(bytes).buffer }).base32);
      expect([...fromBase32(text)]).toEqual([...bytes]);
      expect([...fromBase32(text.toLowerCase())]).toEqual([...Secret.fromBase32(text).bytes]);
    }), { numRuns: 500 });
  });

  it('makes the code otpauth makes, for any secret, step and length', () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 2 ** 40 }), fc.integer({ min: 6, max: 8 }), (bytes, step, digits) => {
      const secret = toBase32(bytes);
      expect(codeAt(secret, step, digits)).toBe(HOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits, counter: step }));
    }), { numRuns: 500 });
  });

  it('writes the otpauth URL otpauth writes', () => {
    const secret = newSecret();
    for (const name of ['ada.lovelace', 'grace_h', 'x.y_z.9']) {
      expect(otpauthUrl(secret, name)).toBe(new TOTP({ issuer: 'Aperture', label: name, secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).toString());
    }
  });
});
