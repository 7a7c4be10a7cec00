// LOG_DB_CALLS=1 (every deployed stage): one log line per DynamoDB call, under the trace id of
// the request that made it, so one request is followed from the API to each of its calls.
// The setting is read at cold start, so it is set before the modules load.
process.env.LOG_DB_CALLS = '1';
/* eslint-disable @typescript-eslint/no-require-imports */
const { makeUser } = require('../support/factories') as typeof import('../support/factories');
const { call } = require('../support/invoke') as typeof import('../support/invoke');
const { handler: me } = require('../../functions/users/me') as typeof import('../../functions/users/me');
const { handler: follow } = require('../../functions/users/follow') as typeof import('../../functions/users/follow');
/* eslint-enable @typescript-eslint/no-require-imports */

type Line = { event: string; traceId?: string; command?: string; table?: string; index?: string; ms?: number; consumed?: unknown; error?: string };

async function linesOf(run: () => Promise<unknown>): Promise<Line[]> {
  const lines: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return lines.flatMap((l) => l.split('\n')).filter(Boolean).map((l) => JSON.parse(l) as Line);
}

it('logs every DynamoDB call of a request, with its trace id, command, table, time and capacity', async () => {
  const [u, v] = [await makeUser(), await makeUser()];
  const read = await linesOf(() => call(me, 'GET /users/me', { token: u.token, headers: { 'X-Trace-Id': 'db-log-read' } }));
  const calls = read.filter((l) => l.event === 'db_call');
  expect(calls.length).toBeGreaterThanOrEqual(3);
  for (const c of calls) {
    expect(c).toMatchObject({ traceId: 'db-log-read', table: process.env.TABLE_NAME, ms: expect.any(Number) });
    expect(c.error).toBeUndefined();
  }
  expect(calls.map((c) => c.command)).toEqual(expect.arrayContaining(['GetItemCommand', 'QueryCommand']));
  expect(calls.find((c) => c.command === 'GetItemCommand')!.consumed).toMatchObject({ TableName: process.env.TABLE_NAME, CapacityUnits: expect.any(Number) });

  const write = await linesOf(() => call(follow, 'POST /users/follow/{identifier}', { token: u.token, params: { identifier: v.id }, headers: { 'X-Trace-Id': 'db-log-write' } }));
  const tx = write.filter((l) => l.event === 'db_call' && l.command === 'TransactWriteItemsCommand');
  expect(tx).toHaveLength(1);
  expect(tx[0]!.traceId).toBe('db-log-write');
  expect(tx[0]!.consumed).toEqual(expect.arrayContaining([expect.objectContaining({ TableName: process.env.TABLE_NAME })]));
});
