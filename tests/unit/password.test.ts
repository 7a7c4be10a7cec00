// The stored scrypt hash and the salt the claims carry (lib/users/password.ts): what saltOf
// takes from a hash, and that a key derived from it matches only its own hash.
import { DUMMY_HASH, deriveKey, hashPassword, keyMatches, saltOf, verifyPassword } from '../../lib/users/password';

describe('saltOf', () => {
  it('takes the scheme, the parameters and the salt of a stored hash, never its key', async () => {
    const stored = await hashPassword('correct horse');
    const parts = stored.split('$');
    expect(parts).toHaveLength(6);
    expect(saltOf(stored)).toBe(parts.slice(0, 5).join('$'));
    expect(saltOf(stored)).not.toContain(parts[5]);
    expect(saltOf(DUMMY_HASH)).toBe('argon2id$19456$2$1$AAAAAAAAAAAAAAAAAAAAAA==');
  });

  it('is undefined for anything else', () => {
    for (const v of [undefined, null, 42, {}, '', 'bcrypt$10$8$1$c2FsdA==$a2V5', 'scrypt$16384$8$1', 'scrypt$16384$8$1$']) expect(saltOf(v)).toBeUndefined();
  });
});

describe('deriveKey and keyMatches', () => {
  it('the key derived from a hash\'s salt matches that hash for its password only', async () => {
    const stored = await hashPassword('correct horse');
    expect(keyMatches(await deriveKey('correct horse', saltOf(stored)!), stored)).toBe(true);
    expect(keyMatches(await deriveKey('wrong horse', saltOf(stored)!), stored)).toBe(false);
    // Another hash of the same password has another salt: the key does not carry over.
    const again = await hashPassword('correct horse');
    expect(keyMatches(await deriveKey('correct horse', saltOf(again)!), stored)).toBe(false);
  });

  it('a stored hash without its key, or with a key of another length, matches nothing', async () => {
    const stored = await hashPassword('pw');
    const key = await deriveKey('pw', saltOf(stored)!);
    expect(keyMatches(key, saltOf(stored)!)).toBe(false);
    expect(keyMatches(key, `${saltOf(stored)}$${key.subarray(0, 16).toString('base64')}`)).toBe(false);
  });

  it('verifyPassword agrees, and refuses what is not an scrypt hash without hashing', async () => {
    const stored = await hashPassword('pw');
    expect(await verifyPassword('pw', stored)).toBe(true);
    expect(await verifyPassword('px', stored)).toBe(false);
    expect(await verifyPassword('pw', 'plain text')).toBe(false);
  });
});
