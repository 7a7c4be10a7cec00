// One document client per container, created at cold start and reused by every
// invocation: connection reuse is most of DynamoDB's latency budget.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { SharedContextAgent } from './agent';
import { logCalls } from './metrics';
import { logger } from '../log';

const local = config.dynamodbEndpoint
  ? { endpoint: config.dynamodbEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
  : {};

// Sockets: a Lambda serves one request at a time, but one request sends its BatchGet chunks,
// Queries and a stream step's BatchWrites side by side; the SDK's default pool of 50 queued
// requests behind it when a test process (or the benchmark) runs many handlers at once.
const sockets = { keepAlive: true, maxSockets: 256 };
export const dynamo = new DynamoDBClient({
  region: config.region, maxAttempts: 4, ...local,
  requestHandler: { httpAgent: sockets, httpsAgent: new SharedContextAgent(sockets) },
});
// The SDK's logger middleware copies every input and output through its sensitive-data
// filter for the logger, even the default one that logs nothing. We give it no logger (our
// own log line per call is logCalls, below), so the copy was pure cost: a BatchGet of 11
// users took 1.7 to 2.4 ms of CPU with it, 1.2 to 1.7 ms without (docs/PERFORMANCE.md, "The log
// scope, the SDK's logger and the GONE copy").
dynamo.middlewareStack.remove('loggerMiddleware');
export const db = DynamoDBDocumentClient.from(dynamo, {
  marshallOptions: { removeUndefinedValues: true },
});
export const TABLE = config.tableName;
/**
 * A function the process set on globalThis under Symbol.for('aperture.dbClient') before loading the module gets
 * the client to instrument: the benchmark's recorder of every request (scripts/bench/measure.mjs
 * installDbMetrics), which so stays out of the deployed bundles. Nothing sets it in a stage.
 */
const hook = (globalThis as Record<symbol, unknown>)[Symbol.for('aperture.dbClient')];
if (typeof hook === 'function') hook(dynamo);
// The calls of a share of requests, and every failed call, logged under the request's trace id
// (deployed stages; lib/db/metrics.ts).
if (config.logDbCalls > 0) logCalls(dynamo, logger.info, config.logDbCalls);
