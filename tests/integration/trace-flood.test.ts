// Trace records written by others under a user's trace id (contract section 9): a refused
// request keeps at most 4 KiB of its body, and reading one's own records costs the same
// however many records others wrote under the trace id (docs/API.md, "Trace logs").
// The request recorder is the benchmark's (scripts/bench/measure.mjs), installed before the modules load.
export {}; // a module: its names are its own
/* eslint-disable @typescript-eslint/no-require-imports */
(require('../../scripts/bench/measure.mjs') as { installDbMetrics: () => void }).installDbMetrics();
const { call } = require('../support/invoke') as typeof import('../support/invoke');
const { makeUser, uniq } = require('../support/factories') as typeof import('../support/factories');
const { inFlight } = require('../support/concurrency') as typeof import('../support/concurrency');
const { recorded } = require('../support/db-metrics') as typeof import('../support/db-metrics');
const { handler: edit } = require('../../functions/users/edit') as typeof import('../../functions/users/edit');
const { handler: traceLogs, TRACE_ANSWER_MAX } = require('../../functions/logs/trace') as typeof import('../../functions/logs/trace');
const { signToken } = require('../../lib/auth/tokens') as typeof import('../../lib/auth/tokens');
const { writeLog } = require('../../lib/audit/records') as typeof import('../../lib/audit/records');

type Rec = { command: string; input: { ExpressionAttributeValues?: Record<string, { S?: string }> }; consumed?: { CapacityUnits?: number } };

const read = (token: string, traceId: string) => call(traceLogs, 'GET /logs/trace/{traceId}', { token, params: { traceId } });

/** The Queries a read of the trace sent, and the read capacity they consumed. */
async function costOfRead(token: string, traceId: string) {
  let res: Awaited<ReturnType<typeof read>> | undefined;
  const recs = (await recorded(async () => { res = await read(token, traceId); })) as Rec[];
  const onTrace = recs.filter((r) => r.command === 'QueryCommand'
    && Object.values(r.input.ExpressionAttributeValues ?? {}).some((v) => v.S === `TRACE#${traceId}`));
  return { res: res!, queries: onTrace.length, rcu: onTrace.reduce((n, r) => n + (r.consumed?.CapacityUnits ?? 0), 0) };
}

// A body just under the 100 KiB limit that the edit refuses (a bio far over its length).
const bigBody = { bio: 'x'.repeat(100 * 1024 - 20) };

it('a victim reads its own records at the same cost after 200 refused 100 KiB requests of another user under its trace id', async () => {
  const [victim, attacker] = [await makeUser(), await makeUser()];
  const t = uniq('flood');
  for (const bio of ['one', 'two']) {
    expect((await call(edit, 'POST /users/profile/edit', { token: victim.token, body: { bio }, headers: { 'X-Trace-Id': t } })).status).toBe(200);
  }
  const before = await costOfRead(victim.token, t);
  expect(before.res.body.data.count).toBe(2);

  await inFlight(8, Array.from({ length: 200 }, () => async () => {
    const res = await call(edit, 'POST /users/profile/edit', { token: attacker.token, body: bigBody, headers: { 'X-Trace-Id': t } });
    expect(res.status).toBe(400);
  }));

  const after = await costOfRead(victim.token, t);
  expect(after.res.status).toBe(200);
  expect(after.res.body.data.count).toBe(2);
  expect(after.res.body.data.logs.map((l: { actor: { id: string } }) => l.actor.id)).toEqual([victim.id, victim.id]);
  expect({ queries: after.queries, rcu: after.rcu }).toEqual({ queries: before.queries, rcu: before.rcu });
  expect(after.queries).toBe(1);

  // A logs:read token sees all 202, each refused body cut to its first 4,096 bytes of text.
  const admin = await signToken({ userId: victim.id, sessionId: victim.sessionId, epoch: 0 }, ['logs:read']);
  const all = (await read(admin, t)).body.data;
  expect(all.count).toBe(202);
  const refused = all.logs.filter((l: { actor: { id: string } }) => l.actor.id === attacker.id);
  expect(refused).toHaveLength(200);
  for (const l of refused) {
    expect(l.level).toBe('WARN');
    expect(l.payload.truncated).toBe(true);
    expect(Buffer.byteLength(l.payload.body, 'utf8')).toBe(4096);
    expect(l.payload.body.startsWith('{"bio":"xxx')).toBe(true);
  }
}, 120_000);

it('a logs:read token reads a whole trace of several actors in order of simTimestamp, then of writing; at most the first 1,000', async () => {
  const [a, b] = [await makeUser(), await makeUser()];
  const t = uniq('order');
  const h = (sim: number) => ({ 'X-Trace-Id': t, 'X-Sim-Timestamp': String(sim) });
  await call(edit, 'POST /users/profile/edit', { token: b.token, body: { bio: 'b at 20' }, headers: h(20) });
  await call(edit, 'POST /users/profile/edit', { token: a.token, body: { bio: 'a at 30' }, headers: h(30) });
  await call(edit, 'POST /users/profile/edit', { token: a.token, body: { bio: 'a at 10' }, headers: h(10) });
  await call(edit, 'POST /users/profile/edit', { token: b.token, body: { bio: 'b at 30' }, headers: h(30) });
  const admin = await signToken({ userId: a.id, sessionId: a.sessionId, epoch: 0 }, ['logs:read']);
  const bios = (await read(admin, t)).body.data.logs.map((l: { payload: { body: { bio: string } } }) => l.payload.body.bio);
  expect(bios).toEqual(['a at 10', 'b at 20', 'a at 30', 'b at 30']);
  expect((await read(a.token, t)).body.data.logs.map((l: { payload: { body: { bio: string } } }) => l.payload.body.bio)).toEqual(['a at 10', 'a at 30']);

  // Past the cap: the first 1,000 in order, and `truncated`.
  const many = uniq('many');
  await inFlight(16, Array.from({ length: TRACE_ANSWER_MAX + 1 }, (_, i) => () => writeLog(
    { traceId: many, scenarioId: '', stepId: '', simTimestamp: TRACE_ANSWER_MAX + 1 - i },
    { type: 'TEST_RECORD', description: 'A record.', actorId: i % 2 ? a.id : b.id },
  )));
  const capped = (await read(admin, many)).body.data;
  expect(capped.count).toBe(TRACE_ANSWER_MAX);
  expect(capped.truncated).toBe(true);
  expect(capped.logs[0].simTimestamp).toBe(1);
  expect(capped.logs.at(-1).simTimestamp).toBe(TRACE_ANSWER_MAX);
  const own = (await read(a.token, many)).body.data;
  expect(own.count).toBe(TRACE_ANSWER_MAX / 2); // the odd i of 0..1,000
  expect(own.truncated).toBeUndefined();
}, 120_000);
