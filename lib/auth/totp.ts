// TOTP as RFC 6238 (contract section 17): HMAC-SHA-1, 6 digits, 30-second steps, a base32
// secret of 160 bits; a code is looked for in its own step and one step either side. The HOTP
// core (RFC 4226's dynamic truncation) is otpauth's; which step matched is decided here, so
// the caller can accept each step once (the account's `lastStep`, lib/auth/two-factor.ts).
import { HOTP, Secret, TOTP } from 'otpauth';
import { timingSafeEqual } from 'node:crypto';

export const DIGITS = 6;
export const PERIOD_S = 30;
/** Steps either side of the current one a code is accepted in. */
export const WINDOW = 1;
/** 160 bits: RFC 4226's recommended length, and the contract's least. */
export const SECRET_BYTES = 20;
export const ISSUER = 'Aperture';

/** A new random secret, base32 (32 characters for 160 bits). */
export const newSecret = (): string => new Secret({ size: SECRET_BYTES }).base32;

/** The step (RFC 6238's T) of an instant in epoch ms. */
export const stepAt = (nowMs: number): number => Math.floor(nowMs / 1000 / PERIOD_S);

/** The code of one step (RFC 4226 HOTP with the step as counter). `digits` other than 6 serve the RFC's test vectors only. */
export const codeAt = (secret: string, step: number, digits = DIGITS): string =>
  HOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits, counter: step });

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The step a code belongs to: the earliest step of the window (the current one and WINDOW
 * either side) after `after` whose code it is, else undefined. Every step of the window is
 * computed and compared in constant time, whatever matched.
 */
export function matchStep(secret: string, code: string, nowMs: number, after = -Infinity): number | undefined {
  const now = stepAt(nowMs);
  let found: number | undefined;
  for (let step = now - WINDOW; step <= now + WINDOW; step++) {
    if (same(codeAt(secret, step), code) && step > after && found === undefined) found = step;
  }
  return found;
}

/** The otpauth:// URL an authenticator app reads (as a QR code): issuer Aperture, the username as label. */
export const otpauthUrl = (secret: string, username: string): string =>
  new TOTP({ issuer: ISSUER, label: username, secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: DIGITS, period: PERIOD_S }).toString();
