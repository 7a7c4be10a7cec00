// A stored hash of weaker parameters (the earlier scrypt N=2^14) is replaced by an Argon2id one at
// the account's next successful password check (contract section 3): a login, an e-mail change
// request; a wrong password replaces nothing.
import { randomBytes, scryptSync } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { call } from '../support/invoke';
import { makeUser, uniq, type TestUser } from '../support/factories';
import { getItem } from '../support/db';
import { db, TABLE } from '../../lib/db/client';
import * as keys from '../../lib/keys';
import { saltOf } from '../../lib/users/password';
import { handler as login } from '../../functions/auth/login';
import { handler as changeEmail } from '../../functions/users/email';

function legacyScrypt(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFKC'), salt, 32, { N: 16384, r: 8, p: 1 });
  return ['scrypt', 16384, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
}

/** `u` with the hash it would have had before Argon2id (and its claims' salt to match). */
async function withLegacyHash(u: TestUser): Promise<string> {
  const stored = legacyScrypt(u.password);
  await db.send(new UpdateCommand({ TableName: TABLE, Key: keys.user(u.id), UpdateExpression: 'SET passwordHash = :h', ExpressionAttributeValues: { ':h': stored } }));
  for (const key of [keys.username(u.username), keys.email(u.email)]) {
    await db.send(new UpdateCommand({ TableName: TABLE, Key: key, UpdateExpression: 'SET salt = :s', ExpressionAttributeValues: { ':s': saltOf(stored) } }));
  }
  return stored;
}
const hashOf = async (u: TestUser) => String((await getItem(keys.user(u.id)))!.passwordHash);

it('a login with a scrypt hash succeeds and leaves an Argon2id hash, on the user and its claims; a wrong password leaves it', async () => {
  const u = await makeUser();
  const legacy = await withLegacyHash(u);
  expect((await call(login, 'POST /auth/login', { body: { identifier: u.username, password: 'wrong password' } })).status).toBe(401);
  expect(await hashOf(u)).toBe(legacy);
  expect((await call(login, 'POST /auth/login', { body: { identifier: u.username, password: u.password } })).status).toBe(200);
  const now = await hashOf(u);
  expect(now).toMatch(/^argon2id\$19456\$2\$1\$/);
  expect((await getItem(keys.username(u.username)))!.salt).toBe(saltOf(now));
  expect((await getItem(keys.email(u.email)))!.salt).toBe(saltOf(now));
  // And the new hash checks the same password.
  expect((await call(login, 'POST /auth/login', { body: { identifier: u.email, password: u.password } })).status).toBe(200);
});

it('an e-mail change request with the right password replaces a scrypt hash too', async () => {
  const u = await makeUser();
  await withLegacyHash(u);
  const res = await call(changeEmail, 'POST /users/me/email', { token: u.token, body: { email: `${uniq()}@example.test`, password: u.password } });
  expect(res.status).toBe(202);
  expect(await hashOf(u)).toMatch(/^argon2id\$19456\$2\$1\$/);
});
