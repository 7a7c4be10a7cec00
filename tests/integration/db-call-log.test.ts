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

describe('sampled', () => {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { DynamoDBClient, GetItemCommand } = require('@aws-sdk/client-dynamodb') as typeof import('@aws-sdk/client-dynamodb');
  const { logCalls } = require('../../lib/db/metrics') as typeof import('../../lib/db/metrics');
  const { withLogScope } = require('../../lib/log') as typeof import('../../lib/log');
  /* eslint-enable @typescript-eslint/no-require-imports */

  /** A client on DynamoDB Local that logs into `lines` at the given share of invocations. */
  function client(rate: number, lines: string[]) {
    const c = new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    logCalls(c, (event, fields) => lines.push(`${event}:${String(fields.command)}:${String(fields.error ?? '')}`), rate);
    return c;
  }
  const get = (table: string) => new GetItemCommand({ TableName: table, Key: { PK: { S: 'x' }, SK: { S: 'y' } } });

  it('logs every call of a sampled invocation and none of another, and every failed call of either', async () => {
    const lines: string[] = [];
    const c = client(0.5, lines);
    const random = jest.spyOn(Math, 'random');
    try {
      // Drawn once per invocation: under the share, both calls are logged. (The SDK draws too:
      // every draw of an invocation gives the same number, whoever draws first.)
      random.mockReturnValue(0.2);
      await withLogScope(async () => { await c.send(get(process.env.TABLE_NAME!)); await c.send(get(process.env.TABLE_NAME!)); });
      expect(lines).toEqual(['db_call:GetItemCommand:', 'db_call:GetItemCommand:']);
      // Over it: nothing of its successes, but its failure.
      lines.length = 0;
      random.mockReturnValue(0.9);
      await withLogScope(async () => {
        await c.send(get(process.env.TABLE_NAME!));
        await expect(c.send(get('no-such-table'))).rejects.toThrow();
      });
      expect(lines).toEqual(['db_call:GetItemCommand:ResourceNotFoundException']);
    } finally {
      random.mockRestore();
      c.destroy();
    }
  });

  it('logs only failed calls at a share of 0', async () => {
    const lines: string[] = [];
    const c = client(0, lines);
    try {
      await withLogScope(async () => {
        await c.send(get(process.env.TABLE_NAME!));
        await expect(c.send(get('no-such-table'))).rejects.toThrow();
      });
      expect(lines).toEqual(['db_call:GetItemCommand:ResourceNotFoundException']);
    } finally {
      c.destroy();
    }
  });
});
