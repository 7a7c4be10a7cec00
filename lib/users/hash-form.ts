// The form of a stored password hash, `<algorithm>$<params>$<salt>$<key>` (lib/users/password.ts),
// read without hashing: a module of its own, so that code that only reads a hash's form (the
// claims' salt, lib/users/write.ts) does not load the native Argon2 package with it (every
// bundle that imports lib/users/password.ts requires @node-rs/argon2, resources/argon2-package.js).
import { timingSafeEqual } from 'node:crypto';

/**
 * What a computation needs of a stored hash, without its key: `<algorithm>$<params>$<salt>`. The
 * username and e-mail claims carry it (lib/users/write.ts claimItem), so a login can start
 * hashing after its first read (functions/auth/login.ts). Undefined for anything else.
 */
export function saltOf(stored: unknown): string | undefined {
  if (typeof stored !== 'string') return undefined;
  const parts = stored.split('$');
  if (parts.length < 5 || (parts[0] !== 'scrypt' && parts[0] !== 'argon2id') || !parts[4]) return undefined;
  if (!parts.slice(1, 4).every((n) => /^[1-9][0-9]{0,9}$/.test(n))) return undefined;
  return parts.slice(0, 5).join('$');
}

/** Whether `key` is the key `stored` holds, compared in constant time. */
export function keyMatches(key: Buffer, stored: string): boolean {
  const expected = Buffer.from(stored.split('$')[5] ?? '', 'base64');
  return expected.length === key.length && timingSafeEqual(key, expected);
}

