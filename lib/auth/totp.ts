// TOTP as RFC 6238 (contract section 17): HMAC-SHA-1, 6 digits, 30-second steps, a base32
// secret of 160 bits; a code is looked for in its own step and one step either side. Which step
// matched is decided here, so the caller can accept each step once (the account's `lastStep`,
// lib/auth/two-factor.ts). The HOTP core (RFC 4226's dynamic truncation) and base32 (RFC 4648)
// are a few lines over node:crypto, not the otpauth package: it was 6.7 KB of each two-factor
// bundle for the same; tests/unit/totp.test.ts runs them beside otpauth on generated inputs.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32, upper case, without padding. */
export function toBase32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** The bytes of a base32 text (case, spaces and padding ignored); throws on another character. */
export function fromBase32(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=]/g, '');
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of clean) {
    const i = BASE32.indexOf(ch);
    if (i < 0) throw new TypeError('Invalid base32 character');
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

export const DIGITS = 6;
export const PERIOD_S = 30;
/** Steps either side of the current one a code is accepted in. */
export const WINDOW = 1;
/** 160 bits: RFC 4226's recommended length, and the contract's least. */
export const SECRET_BYTES = 20;
export const ISSUER = 'Aperture';

/** A new random secret, base32 (32 characters for 160 bits). */
export const newSecret = (): string => toBase32(randomBytes(SECRET_BYTES));

/** The step (RFC 6238's T) of an instant in epoch ms. */
export const stepAt = (nowMs: number): number => Math.floor(nowMs / 1000 / PERIOD_S);

/** The code of one step (RFC 4226 HOTP with the step as counter). `digits` other than 6 serve the RFC's test vectors only. */
export function codeAt(secret: string, step: number, digits = DIGITS): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', fromBase32(secret)).update(counter).digest();
  // RFC 4226 5.3: 31 bits from the offset the last nibble names, then the low decimal digits.
  const offset = mac[mac.length - 1]! & 15;
  const n = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(n).padStart(digits, '0');
}

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
  `otpauth://totp/${encodeURIComponent(ISSUER)}:${encodeURIComponent(username)}?issuer=${encodeURIComponent(ISSUER)}&secret=${secret}&algorithm=SHA1&digits=${DIGITS}&period=${PERIOD_S}`;
