// The password change and the account deletion on their shortest paths
// (functions/auth/password.ts, lib/account/delete.ts): a password change hashes the new
// password and lists the sessions to end beside its reads and the check of the current
// password, so it waits for one hash and sends no read after its write; an account deletion
// leaves its sessions' items to the account's cleanup (the final job removes the partition).
// The request counter is the benchmark's (scripts/bench/measure.mjs), installed before the
// modules load.
/* eslint-disable @typescript-eslint/no-require-imports */
(require('../../scripts/bench/measure.mjs') as { installDbMetrics: () => void }).installDbMetrics();
const { call } = require('../support/invoke') as typeof import('../support/invoke');
const { makeUser } = require('../support/factories') as typeof import('../support/factories');
const { getItem } = require('../support/db') as typeof import('../support/db');
const { loginAgain } = require('../support/routes') as typeof import('../support/routes');
const { recorded } = require('../support/db-metrics') as typeof import('../support/db-metrics');
type Rec = import('../support/db-metrics').Rec;
const keys = require('../../lib/keys') as typeof import('../../lib/keys');
const { db } = require('../../lib/db/client') as typeof import('../../lib/db/client');
const { handler: password } = require('../../functions/auth/password') as typeof import('../../functions/auth/password');
const { handler: deleteMe } = require('../../functions/users/delete') as typeof import('../../functions/users/delete');
const { handler: me } = require('../../functions/users/me') as typeof import('../../functions/users/me');
// The module object itself, whose hashRaw lib/users/password.ts calls (Argon2id).
const argon2 = require('@node-rs/argon2') as typeof import('@node-rs/argon2');
/* eslint-enable @typescript-eslint/no-require-imports */
export {};

const whoAmI = (token: string) => call(me, 'GET /users/me', { token });

/**
 * The order in which password hash computations (Argon2id's hashRaw, a check and a new hash
 * alike) started and ended during `run`, and `answered` when it resolved. `slowFirst`: the
 * first computation's result is held back that many ms.
 */
async function hashOrder(run: () => Promise<unknown>, slowFirst = 0): Promise<string[]> {
  const order: string[] = [];
  const real = argon2.hashRaw;
  let n = 0;
  const spy = jest.spyOn(argon2, 'hashRaw').mockImplementation((async (...args: Parameters<typeof real>) => {
    const id = ++n;
    order.push(`start ${id}`);
    const key = await real(...args);
    await new Promise((r) => setTimeout(r, id === 1 ? slowFirst : 0));
    order.push(`end ${id}`);
    return key;
  }) as typeof real);
  try {
    await run();
    order.push('answered');
  } finally {
    spy.mockRestore();
  }
  return order;
}

describe('POST /auth/password', () => {
  it('hashes the new password while the current one is checked: both computations run at once', async () => {
    const u = await makeUser();
    let status = 0;
    const order = await hashOrder(async () => {
      status = (await call(password, 'POST /auth/password', { token: u.token, body: { currentPassword: u.password, newPassword: 'a new password here' } })).status;
    });
    expect(status).toBe(200);
    // One after the other would be start 1, end 1, start 2, end 2.
    expect(order.slice(0, 2)).toEqual(['start 1', 'start 2']);
    expect(order).toHaveLength(5);
  });

  it('reads the sessions beside its first reads: after its write, no read, only the ended sessions\' deletion and the claims\' salt', async () => {
    const u = await makeUser();
    const others = [await loginAgain(u), await loginAgain(u)];
    let status = 0;
    const recs = await recorded(async () => {
      status = (await call(password, 'POST /auth/password', { token: u.token, body: { currentPassword: u.password, newPassword: 'another new one' } })).status;
    });
    expect(status).toBe(200);
    // The login lock's admission beside the first reads and its release beside the write (two
    // UpdateItems of the guard, whose order against the write is a race); the rest in order.
    const ofGuard = (r: Rec) => JSON.stringify(r.input).includes('LOGIN_GUARD');
    expect(recs.filter(ofGuard).map((r) => r.command)).toEqual(['UpdateItemCommand', 'UpdateItemCommand']);
    const commands = recs.filter((r) => !ofGuard(r)).map((r) => r.command);
    const write = commands.indexOf('TransactWriteItemsCommand');
    expect(write).toBeGreaterThan(0);
    // Beside the deletion, the claims take the new hash's salt (tests/integration/login-salt.test.ts).
    expect(commands.slice(write + 1).sort()).toEqual(['BatchWriteItemCommand', 'UpdateItemCommand', 'UpdateItemCommand']);
    expect(commands.slice(0, write)).toContain('QueryCommand');
    // The ended sessions' items are gone when it answers; the caller's stays and still works.
    for (const o of others) expect(await getItem(keys.session(u.id, o.sessionId))).toBeUndefined();
    for (const o of others) expect((await whoAmI(o.token)).status).toBe(401);
    expect(await getItem(keys.session(u.id, u.sessionId))).toBeDefined();
    expect((await whoAmI(u.token)).status).toBe(200);
  });

  it('a failed list of the sessions does not fail the change: the dead sessions are read after it instead', async () => {
    const u = await makeUser();
    const other = await loginAgain(u);
    // The first Query the change sends (its list of the sessions, beside its reads) fails.
    const send = db.send.bind(db);
    let queries = 0;
    const spy = jest.spyOn(db, 'send').mockImplementation(((command: { constructor: { name: string } }, ...rest: unknown[]) => {
      if (command.constructor.name === 'QueryCommand' && ++queries === 1) return Promise.reject(new Error('throttled'));
      return (send as (...a: unknown[]) => Promise<unknown>)(command, ...rest);
    }) as typeof db.send);
    let status = 0;
    let commands: string[] = [];
    try {
      commands = (await recorded(async () => {
        status = (await call(password, 'POST /auth/password', { token: u.token, body: { currentPassword: u.password, newPassword: 'changed all the same' } })).status;
      })).map((r) => r.command);
    } finally {
      spy.mockRestore();
    }
    expect(queries).toBe(2);
    expect(status).toBe(200);
    const write = commands.indexOf('TransactWriteItemsCommand');
    expect(commands.slice(write + 1).filter((c) => c !== 'UpdateItemCommand')).toEqual(['QueryCommand', 'BatchWriteItemCommand']);
    expect(await getItem(keys.session(u.id, other.sessionId))).toBeUndefined();
    expect((await whoAmI(other.token)).status).toBe(401);
  });

  it('a wrong current password answers 401 after every part has settled, and changes nothing', async () => {
    const u = await makeUser();
    const other = await loginAgain(u);
    const before = await getItem(keys.user(u.id));
    let status = 0;
    // The new password's hash (the first computation) is held back well past the check's
    // answer: the 401 must still wait for it.
    const order = await hashOrder(async () => {
      status = (await call(password, 'POST /auth/password', { token: u.token, body: { currentPassword: 'not it at all', newPassword: 'whatever new' } })).status;
    }, 400);
    expect(status).toBe(401);
    // Both computations ended before the answer (none left running past it).
    expect(order).toEqual(['start 1', 'start 2', 'end 2', 'end 1', 'answered']);
    const after = await getItem(keys.user(u.id));
    expect(after!.passwordHash).toBe(before!.passwordHash);
    expect(after!.sessionEpoch).toBe(before!.sessionEpoch);
    expect(await getItem(keys.session(u.id, other.sessionId))).toBeDefined();
    expect((await whoAmI(other.token)).status).toBe(200);
  });
});

describe('DELETE /users/me', () => {
  it('sends nothing after its transaction: the sessions are refused at once and their items left to the cleanup', async () => {
    const u = await makeUser();
    const other = await loginAgain(u);
    let status = 0;
    const recs = await recorded(async () => {
      status = (await call(deleteMe, 'DELETE /users/me', { token: u.token, body: { password: u.password } })).status;
    });
    expect(status).toBe(200);
    const commands = recs.map((r) => r.command);
    expect(commands[commands.length - 1]).toBe('TransactWriteItemsCommand');
    expect(commands.filter((c) => c === 'TransactWriteItemsCommand')).toHaveLength(1);
    expect((await whoAmI(u.token)).status).toBe(401);
    expect((await whoAmI(other.token)).status).toBe(401);
  });
});
