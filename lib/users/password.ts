// Password hashing (contract section 3): Argon2id at OWASP's minimum (m=19 MiB, t=2, p=1) with
// @node-rs/argon2 (native, on libuv's threads), compared in constant time. A stored hash is
// `argon2id$<m KiB>$<t>$<p>$<salt>$<key>` (base64). Hashes of the earlier form,
// `scrypt$<N>$<r>$<p>$<salt>$<key>` (N=2^14), still verify, and are replaced at the account's
// next successful check (`needsRehash`; lib/users/rehash.ts upgradeHash).
import { randomBytes, scrypt as scryptCb, type ScryptOptions } from 'node:crypto';
import * as argon2 from '@node-rs/argon2';
import { keyMatches, saltOf } from './hash-form';

export { keyMatches, saltOf };

/** The parameters new hashes are made with: the OWASP Password Storage Cheat Sheet's minimum for Argon2id. */
export const ARGON2 = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
const KEY_LENGTH = 32;
/** `Algorithm.Argon2id` of @node-rs/argon2 (a const enum, which isolated modules cannot read). */
const ARGON2ID = 2;

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password.normalize('NFKC'), salt, keyLength, { ...options, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      (err ? reject(err) : resolve(key))));
}

function argon2id(password: string, salt: Buffer, m: number, t: number, p: number): Promise<Buffer> {
  return argon2.hashRaw(password.normalize('NFKC'), { salt, memoryCost: m, timeCost: t, parallelism: p, outputLen: KEY_LENGTH, algorithm: ARGON2ID });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await argon2id(password, salt, ARGON2.memoryCost, ARGON2.timeCost, ARGON2.parallelism);
  return ['argon2id', ARGON2.memoryCost, ARGON2.timeCost, ARGON2.parallelism, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const salt = saltOf(stored);
  return salt !== undefined && keyMatches(await deriveKey(password, salt), stored);
}

/** Whether a stored hash is of weaker parameters than new ones: it is replaced at the next successful check. */
export function needsRehash(stored: string): boolean {
  return saltOf(stored) === undefined || !stored.startsWith(`argon2id$${ARGON2.memoryCost}$${ARGON2.timeCost}$${ARGON2.parallelism}$`);
}

/** The key `password` derives with the algorithm, parameters and salt of `salt` (saltOf's form). */
export function deriveKey(password: string, salt: string): Promise<Buffer> {
  const [algorithm, a, b, c, saltB64] = salt.split('$');
  const bytes = Buffer.from(saltB64!, 'base64');
  if (algorithm === 'argon2id') return argon2id(password, bytes, Number(a), Number(b), Number(c));
  return scrypt(password, bytes, KEY_LENGTH, { N: Number(a), r: Number(b), p: Number(c) });
}

/** Hash checked when the account does not exist, so that both failures take the same time (the parameters of new hashes). */
export const DUMMY_HASH = `argon2id$${ARGON2.memoryCost}$${ARGON2.timeCost}$${ARGON2.parallelism}$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=`;
