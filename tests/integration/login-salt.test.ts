// The username and e-mail claims carry the salt of the account's password hash (no key), so a
// login starts hashing after its first read, beside its read of the user item
// (functions/auth/login.ts, lib/users/write.ts claimItem). Registration, a username change and
// a password change keep it; a claim without one, or with one the hash no longer has, is
// checked after the user's read, as before.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { call } from '../support/invoke';
import { makeUser, uniq } from '../support/factories';
import { getItem } from '../support/db';
import { db, TABLE } from '../../lib/db/client';
import * as keys from '../../lib/keys';
import { hashPassword, saltOf } from '../../lib/users/password';
import { handler as login } from '../../functions/auth/login';
import { handler as password } from '../../functions/auth/password';
import { handler as edit } from '../../functions/users/edit';
import { saltClaim } from '../../lib/users/write';
import { MAX_FAILURES } from '../../lib/auth/login-guard';
// The module object itself, whose hashRaw lib/users/password.ts calls.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const argon2: typeof import('@node-rs/argon2') = require('@node-rs/argon2');

const loggingIn = (identifier: string, pw: string) => call(login, 'POST /auth/login', { body: { identifier, password: pw } });

/** The events of `run`: hash computations started ('hash'), and the user item's read answered (held back `holdUserMs`). */
async function events(userId: string, run: () => Promise<unknown>, holdUserMs = 0): Promise<string[]> {
  const seen: string[] = [];
  const real = argon2.hashRaw;
  const hashing = jest.spyOn(argon2, 'hashRaw');
  const send = db.send.bind(db);
  const userKey = keys.user(userId);
  const reads = jest.spyOn(db, 'send').mockImplementation((async (command: { constructor: { name: string }; input: { Key?: { PK?: string; SK?: string } } }, ...rest: unknown[]) => {
    const answer = await (send as (...a: unknown[]) => Promise<unknown>)(command, ...rest);
    if (command.constructor.name === 'GetCommand' && command.input.Key?.PK === userKey.PK && command.input.Key?.SK === userKey.SK) {
      await new Promise((r) => setTimeout(r, holdUserMs));
      seen.push('user read');
    }
    return answer;
  }) as typeof db.send);
  hashing.mockImplementation(((...args: Parameters<typeof argon2.hashRaw>) => {
    seen.push('hash');
    return real(...args);
  }) as typeof argon2.hashRaw);
  try {
    await run();
  } finally {
    hashing.mockRestore();
    reads.mockRestore();
  }
  return seen;
}

describe('the claims carry the hash\'s salt', () => {
  it('registration puts it on both claims: the parameters and the salt, never the key', async () => {
    const u = await makeUser();
    const user = await getItem(keys.user(u.id));
    const salt = saltOf(user!.passwordHash);
    expect(salt).toMatch(/^argon2id\$19456\$2\$1\$[A-Za-z0-9+/=]+$/);
    for (const key of [keys.username(u.username), keys.email(u.email)]) {
      const claim = await getItem(key);
      expect(claim!.salt).toBe(salt);
      expect(String(claim!.salt)).not.toContain(String(user!.passwordHash).split('$')[5]);
    }
  });

  it('a login hashes while the user item is still being read, once', async () => {
    const u = await makeUser();
    let status = 0;
    const seen = await events(u.id, async () => { status = (await loggingIn(u.username, u.password)).status; }, 300);
    expect(status).toBe(200);
    // Checking after the read would be ['user read', 'hash'].
    expect(seen).toEqual(['hash', 'user read']);
    const wrong = await events(u.id, async () => { status = (await loggingIn(u.email, 'not the password')).status; }, 300);
    expect(status).toBe(401);
    expect(wrong).toEqual(['hash', 'user read']);
  });

  it('a claim without a salt is checked after the user\'s read, once, and takes the salt at its first good login', async () => {
    const u = await makeUser();
    await db.send(new UpdateCommand({ TableName: TABLE, Key: keys.username(u.username), UpdateExpression: 'REMOVE salt' }));
    let status = 0;
    expect(await events(u.id, async () => { status = (await loggingIn(u.username, 'wrong password')).status; })).toEqual(['user read', 'hash']);
    expect(status).toBe(401);
    // A wrong password gives it nothing.
    expect((await getItem(keys.username(u.username)))!.salt).toBeUndefined();
    expect(await events(u.id, async () => { status = (await loggingIn(u.username, u.password)).status; })).toEqual(['user read', 'hash']);
    expect(status).toBe(200);
    expect((await getItem(keys.username(u.username)))!.salt).toBe(saltOf((await getItem(keys.user(u.id)))!.passwordHash));
    expect(await events(u.id, async () => { status = (await loggingIn(u.username, u.password)).status; })).toEqual(['hash', 'user read']);
    expect(status).toBe(200);
  });

  it('a claim whose salt the hash no longer has: the early key is not trusted, the hash is checked again', async () => {
    const u = await makeUser();
    const other = saltOf(await hashPassword(u.password))!;
    await db.send(new UpdateCommand({ TableName: TABLE, Key: keys.username(u.username), UpdateExpression: 'SET salt = :s', ExpressionAttributeValues: { ':s': other } }));
    let status = 0;
    expect((await loggingIn(u.username, 'wrong password')).status).toBe(401);
    expect((await getItem(keys.username(u.username)))!.salt).toBe(other);
    expect(await events(u.id, async () => { status = (await loggingIn(u.username, u.password)).status; })).toEqual(['hash', 'user read', 'hash']);
    expect(status).toBe(200);
    // The good login put the hash's own salt back on the claim.
    expect((await getItem(keys.username(u.username)))!.salt).toBe(saltOf((await getItem(keys.user(u.id)))!.passwordHash));
    expect(await events(u.id, async () => { status = (await loggingIn(u.username, u.password)).status; })).toEqual(['hash', 'user read']);
  });

  it('a password change puts the new hash\'s salt on both claims', async () => {
    const u = await makeUser();
    const newPassword = 'a changed password';
    expect((await call(password, 'POST /auth/password', { token: u.token, body: { currentPassword: u.password, newPassword } })).status).toBe(200);
    const salt = saltOf((await getItem(keys.user(u.id)))!.passwordHash);
    expect((await getItem(keys.username(u.username)))!.salt).toBe(salt);
    expect((await getItem(keys.email(u.email)))!.salt).toBe(salt);
    let status = 0;
    expect(await events(u.id, async () => { status = (await loggingIn(u.email, newPassword)).status; })).toEqual(['hash', 'user read']);
    expect(status).toBe(200);
    expect((await loggingIn(u.email, u.password)).status).toBe(401);
  });

  it('a locked account with a salted claim: one computation, then 429; an unknown account: one, then 401', async () => {
    const u = await makeUser();
    for (let i = 0; i < MAX_FAILURES; i++) expect((await loggingIn(u.username, 'wrong password')).status).toBe(401);
    let status = 0;
    expect(await events(u.id, async () => { status = (await loggingIn(u.username, u.password)).status; })).toEqual(['hash', 'user read']);
    expect(status).toBe(429);
    expect(await events(u.id, async () => { status = (await loggingIn(uniq('nobody'), u.password)).status; })).toEqual(['hash']);
    expect(status).toBe(401);
  });

  it('a claim salt that cannot be used (bad parameters) is checked after the read and repaired by the good login', async () => {
    const u = await makeUser();
    await db.send(new UpdateCommand({ TableName: TABLE, Key: keys.email(u.email), UpdateExpression: 'SET salt = :s', ExpressionAttributeValues: { ':s': 'scrypt$3$8$1$AAAA' } }));
    expect((await loggingIn(u.email, u.password)).status).toBe(200);
    expect((await getItem(keys.email(u.email)))!.salt).toBe(saltOf((await getItem(keys.user(u.id)))!.passwordHash));
  });

  it('a login\'s repair never writes over a salt that changed since it read the claim', async () => {
    const u = await makeUser();
    const hash = String((await getItem(keys.user(u.id)))!.passwordHash);
    const newer = saltOf(await hashPassword('a password set meanwhile'))!;
    await db.send(new UpdateCommand({ TableName: TABLE, Key: keys.username(u.username), UpdateExpression: 'SET salt = :s', ExpressionAttributeValues: { ':s': newer } }));
    // The login read no salt (or another one): the claim now holds one it did not see.
    await saltClaim(keys.username(u.username), u.id, hash, { seen: undefined });
    await saltClaim(keys.username(u.username), u.id, hash, { seen: 'scrypt$16384$8$1$c2VlbiBiZWZvcmU=' });
    expect((await getItem(keys.username(u.username)))!.salt).toBe(newer);
    // What it did see is replaced; another account's claim never is.
    await saltClaim(keys.username(u.username), u.id, hash, { seen: newer });
    expect((await getItem(keys.username(u.username)))!.salt).toBe(saltOf(hash));
    const other = await makeUser();
    await saltClaim(keys.username(other.username), u.id, hash);
    expect((await getItem(keys.username(other.username)))!.salt).toBe(saltOf(String((await getItem(keys.user(other.id)))!.passwordHash)));
  });

  it('a failed update of the claims does not fail a password change', async () => {
    const u = await makeUser();
    const send = db.send.bind(db);
    const spy = jest.spyOn(db, 'send').mockImplementation(((command: { constructor: { name: string }; input: { Key?: { SK?: string } } }, ...rest: unknown[]) => {
      if (command.constructor.name === 'UpdateCommand' && command.input.Key?.SK === 'CLAIM') return Promise.reject(Object.assign(new Error('throttled'), { name: 'ThrottlingException' }));
      return (send as (...a: unknown[]) => Promise<unknown>)(command, ...rest);
    }) as typeof db.send);
    let status = 0;
    try {
      status = (await call(password, 'POST /auth/password', { token: u.token, body: { currentPassword: u.password, newPassword: 'changed despite it' } })).status;
    } finally {
      spy.mockRestore();
    }
    expect(status).toBe(200);
    // The claims kept the old salt: the next good login checks after its read and repairs them.
    expect((await getItem(keys.username(u.username)))!.salt).not.toBe(saltOf((await getItem(keys.user(u.id)))!.passwordHash));
    expect((await loggingIn(u.username, 'changed despite it')).status).toBe(200);
    expect((await getItem(keys.username(u.username)))!.salt).toBe(saltOf((await getItem(keys.user(u.id)))!.passwordHash));
  });

  it('a username change moves the salt to the new claim', async () => {
    const u = await makeUser();
    const username = uniq('moved').toLowerCase().slice(0, 20);
    expect((await call(edit, 'POST /users/profile/edit', { token: u.token, body: { username } })).status).toBe(200);
    const salt = saltOf((await getItem(keys.user(u.id)))!.passwordHash);
    expect((await getItem(keys.username(username)))!.salt).toBe(salt);
    expect(await getItem(keys.username(u.username))).toBeUndefined();
    expect((await loggingIn(username, u.password)).status).toBe(200);
  });
});
