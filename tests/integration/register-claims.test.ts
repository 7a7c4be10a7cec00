// Registration reads the two claims while the password hashes (functions/auth/register.ts): a
// taken username or e-mail answers 409 from that read, without the transaction; a free pair
// goes on to the transaction, whose conditions still decide. The request counter is the
// benchmark's (scripts/bench/measure.mjs), installed before the modules load.
/* eslint-disable @typescript-eslint/no-require-imports */
(require('../../scripts/bench/measure.mjs') as { installDbMetrics: () => void }).installDbMetrics();
const { call } = require('../support/invoke') as typeof import('../support/invoke');
const { makeUser, uniq } = require('../support/factories') as typeof import('../support/factories');
const { getItem } = require('../support/db') as typeof import('../support/db');
const keys = require('../../lib/keys') as typeof import('../../lib/keys');
const { handler: register } = require('../../functions/auth/register') as typeof import('../../functions/auth/register');
/* eslint-enable @typescript-eslint/no-require-imports */
export {};

const SINK = Symbol.for('aperture.dbMetrics');
type Rec = { command: string; input: { RequestItems?: Record<string, { Keys: { PK: { S?: string } }[]; ConsistentRead?: boolean }> } };
async function requestsOf(run: () => Promise<unknown>): Promise<Rec[]> {
  (globalThis as Record<symbol, unknown>)[SINK] = [];
  await run();
  return (globalThis as Record<symbol, Rec[]>)[SINK] ?? [];
}
const registering = (body: Record<string, string>) => call(register, 'POST /auth/register', { body: { name: 'Claims', password: 'password1', ...body } });
const commands = (recs: Rec[]) => recs.map((r) => r.command);

describe('POST /auth/register reads its claims beside the hash', () => {
  it('a taken username answers 409 from one strongly consistent BatchGet of both claims: no transaction', async () => {
    const a = await makeUser();
    const email = `${uniq('c')}@example.test`;
    let res: Awaited<ReturnType<typeof registering>> | undefined;
    const recs = await requestsOf(async () => { res = await registering({ username: a.username.toUpperCase(), email }); });
    expect(res!.status).toBe(409);
    expect(res!.body).toMatchObject({ success: false, code: 'USERNAME_TAKEN' });
    expect(commands(recs)).toEqual(['BatchGetItemCommand']);
    const [table] = Object.values(recs[0]!.input.RequestItems!);
    expect(table!.ConsistentRead).toBe(true);
    expect(table!.Keys.map((k) => k.PK.S).sort()).toEqual([`EMAIL#${email}`, `USERNAME#${a.username}`]);
    expect(await getItem(keys.email(email))).toBeUndefined();
  });

  it('a taken e-mail answers EMAIL_TAKEN; both taken, the username is named first, as the transaction names it', async () => {
    const a = await makeUser();
    const b = await makeUser();
    const mail = await requestsOf(() => registering({ username: uniq('c'), email: a.email.toUpperCase() }).then((r) => {
      expect(r.status).toBe(409);
      expect(r.body.code).toBe('EMAIL_TAKEN');
    }));
    expect(commands(mail)).toEqual(['BatchGetItemCommand']);
    const both = await registering({ username: a.username, email: b.email });
    expect(both.status).toBe(409);
    expect(both.body.code).toBe('USERNAME_TAKEN');
  });

  it('a free pair goes on to the transaction after the read', async () => {
    const username = uniq('c');
    let res: Awaited<ReturnType<typeof registering>> | undefined;
    const recs = await requestsOf(async () => { res = await registering({ username, email: `${username}@example.test` }); });
    expect(res!.status).toBe(201);
    expect(commands(recs)).toEqual(['BatchGetItemCommand', 'TransactWriteItemsCommand']);
    expect(await getItem(keys.username(username))).toMatchObject({ userId: res!.body.user._id });
  });
});
