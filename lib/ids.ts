// Identifiers are ULIDs: 26 characters of Crockford base32, 48 bits of milliseconds then
// 80 random bits, so they sort by creation time and are URL-safe. A username can never
// have this form (lib/users/fields.ts refuses it), so a path segment is an id exactly when
// it matches ID_PATTERN. Made here rather than with the ulid package: a dozen lines
// instead of 2.5 KB in every bundle.
import { randomBytes } from 'node:crypto';

export const ID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/i;
export const isId = (s: string) => ID_PATTERN.test(s);

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[ms % 32]! + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

let lastTime = -1;
let lastRandom: number[] = [];

/** 16 base32 digits of randomness; within one millisecond, the previous ones plus one. */
function nextRandom(time: number): number[] {
  if (time === lastTime) {
    for (let i = 15; i >= 0; i--) {
      if (lastRandom[i]! < 31) { lastRandom[i]!++; return lastRandom; }
      lastRandom[i] = 0;
    }
  }
  lastTime = time;
  lastRandom = [...randomBytes(16)].map((b) => b & 31);
  lastRandom[0]! &= 15; // leave room to count up within the millisecond
  return lastRandom;
}

/** A new id; monotonic within this process, so ids made in one millisecond still sort in order. */
export function newId(): string {
  // A clock that steps back must not break the order of ids already handed out.
  const time = Math.max(Date.now(), lastTime);
  return encodeTime(time) + nextRandom(time).map((d) => ALPHABET[d]).join('');
}

/**
 * A new id whose 80 random bits are all fresh, never the previous id's plus one: for an id that
 * is a secret of its holder's (a session's), which ids made in the same millisecond must not
 * give away. Registration makes the user's id and its first session's in one millisecond, and
 * the user's id is public. It sorts by its millisecond, not within it.
 */
export function newSecretId(): string {
  return encodeTime(Math.max(Date.now(), lastTime)) + [...randomBytes(16)].map((b) => ALPHABET[b & 31]).join('');
}

/** The creation time an id carries. */
export function idTime(id: string): number {
  let ms = 0;
  for (const c of id.slice(0, 10).toUpperCase()) ms = ms * 32 + ALPHABET.indexOf(c);
  return ms;
}

/**
 * Orders ids by their characters, which for ULIDs is creation order. Not localeCompare: its
 * first call in a process loads ICU's collation data (about 8 ms of a cold start, measured),
 * and for ids' characters it gives this same order.
 */
export const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
