// One document client per container, created at cold start and reused by every
// invocation: connection reuse is most of DynamoDB's latency budget.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { instrument, logCalls } from './metrics';
import { logger } from '../log';

const local = config.dynamodbEndpoint
  ? { endpoint: config.dynamodbEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
  : {};

// Sockets: a Lambda serves one request at a time, but one request sends its BatchGet chunks,
// Queries and a stream step's BatchWrites side by side; the SDK's default pool of 50 queued
// requests behind it when a test process (or the benchmark) runs many handlers at once.
export const dynamo = new DynamoDBClient({
  region: config.region, maxAttempts: 4, ...local,
  requestHandler: { httpAgent: { keepAlive: true, maxSockets: 256 }, httpsAgent: { keepAlive: true, maxSockets: 256 } },
});
export const db = DynamoDBDocumentClient.from(dynamo, {
  marshallOptions: { removeUndefinedValues: true },
});
export const TABLE = config.tableName;
// Benchmark instrumentation (scripts/bench.mjs); never set in a deployed stage.
if (process.env.APERTURE_DB_METRICS === '1') instrument(dynamo);
// Every call logged under the request's trace id (deployed stages; lib/db/metrics.ts).
if (config.logDbCalls) logCalls(dynamo, logger.info);
