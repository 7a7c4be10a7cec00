// Password hashing (contract section 3): new hashes are Argon2id at the OWASP Password Storage
// Cheat Sheet's minimum; hashes of the earlier scrypt form still verify and are due a rehash.
import { randomBytes, scryptSync } from 'node:crypto';
import { ARGON2, DUMMY_HASH, hashPassword, needsRehash, saltOf, verifyPassword } from '../../lib/users/password';

/** A stored hash as the service wrote it before Argon2id (scrypt N=2^14, r=8, p=1). */
function legacyScrypt(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFKC'), salt, 32, { N: 16384, r: 8, p: 1 });
  return ['scrypt', 16384, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
}

it('makes new hashes with Argon2id, m=19 MiB (19,456 KiB), t=2, p=1, a 16-byte salt and a 32-byte key', async () => {
  expect(ARGON2).toEqual({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
  const stored = await hashPassword('correct horse');
  const [algorithm, m, t, p, salt, key] = stored.split('$');
  expect([algorithm, m, t, p]).toEqual(['argon2id', '19456', '2', '1']);
  expect(Buffer.from(salt!, 'base64')).toHaveLength(16);
  expect(Buffer.from(key!, 'base64')).toHaveLength(32);
  expect(needsRehash(stored)).toBe(false);
  expect(DUMMY_HASH.startsWith('argon2id$19456$2$1$')).toBe(true);
});

it('is the Argon2id of RFC 9106 (checked against the PHC string @node-rs/argon2 makes with the same salt)', async () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const argon2: typeof import('@node-rs/argon2') = require('@node-rs/argon2');
  const stored = await hashPassword('correct horse');
  const [, , , , salt, key] = stored.split('$');
  const phc = await argon2.hash('correct horse', { salt: Buffer.from(salt!, 'base64'), memoryCost: 19_456, timeCost: 2, parallelism: 1, outputLen: 32, algorithm: 2 });
  expect(phc).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  expect(Buffer.from(phc.split('$').at(-1)!, 'base64').equals(Buffer.from(key!, 'base64'))).toBe(true);
});

it('verifies the right password only', async () => {
  const stored = await hashPassword('correct horse');
  expect(await verifyPassword('correct horse', stored)).toBe(true);
  expect(await verifyPassword('correct horsE', stored)).toBe(false);
  expect(await verifyPassword('correct horse', 'not a hash')).toBe(false);
});

it('still verifies a scrypt hash of the earlier form, which is due a rehash', async () => {
  const stored = legacyScrypt('battery staple');
  expect(saltOf(stored)).toMatch(/^scrypt\$16384\$8\$1\$/);
  expect(await verifyPassword('battery staple', stored)).toBe(true);
  expect(await verifyPassword('battery stapler', stored)).toBe(false);
  expect(needsRehash(stored)).toBe(true);
  // Argon2id of weaker parameters is due one too.
  expect(needsRehash(stored.replace(/^scrypt\$16384\$8\$1/, 'argon2id$4096$1$1'))).toBe(true);
});
