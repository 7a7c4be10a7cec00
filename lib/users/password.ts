// Password hashing with scrypt (memory-hard) from node:crypto, compared in constant time.
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const PARAMS = { N: 16384, r: 8, p: 1, keyLength: 32 } as const;

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password.normalize('NFKC'), salt, keyLength, { ...options, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      (err ? reject(err) : resolve(key))));
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, PARAMS.keyLength, { N: PARAMS.N, r: PARAMS.r, p: PARAMS.p });
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const salt = saltOf(stored);
  return salt !== undefined && keyMatches(await deriveKey(password, salt), stored);
}

/**
 * What a computation needs of a stored hash, without its key: `scrypt$N$r$p$<salt>`. The
 * username and e-mail claims carry it (lib/users/write.ts claimItem), so a login can start
 * hashing after its first read (functions/auth/login.ts). Undefined for anything else.
 */
export function saltOf(stored: unknown): string | undefined {
  if (typeof stored !== 'string') return undefined;
  const parts = stored.split('$');
  if (parts.length < 5 || parts[0] !== 'scrypt' || !parts[4]) return undefined;
  return parts.slice(0, 5).join('$');
}

/** The key `password` derives with the parameters and salt of `salt` (saltOf's form). */
export function deriveKey(password: string, salt: string): Promise<Buffer> {
  const [, n, r, p, saltB64] = salt.split('$');
  return scrypt(password, Buffer.from(saltB64!, 'base64'), PARAMS.keyLength, { N: Number(n), r: Number(r), p: Number(p) });
}

/** Whether `key` is the key `stored` holds, compared in constant time. */
export function keyMatches(key: Buffer, stored: string): boolean {
  const expected = Buffer.from(stored.split('$')[5] ?? '', 'base64');
  return expected.length === key.length && timingSafeEqual(key, expected);
}

/** Hash checked when the account does not exist, so that both failures take the same time. */
export const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
