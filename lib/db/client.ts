// One document client per container, created at cold start and reused by every
// invocation: connection reuse is most of DynamoDB's latency budget.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { instrument } from './metrics';

const local = config.dynamodbEndpoint
  ? { endpoint: config.dynamodbEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
  : {};

export const dynamo = new DynamoDBClient({ region: config.region, maxAttempts: 4, ...local });
export const db = DynamoDBDocumentClient.from(dynamo, {
  marshallOptions: { removeUndefinedValues: true },
});
export const TABLE = config.tableName;
// Benchmark instrumentation (scripts/bench.mjs); never set in a deployed stage.
if (process.env.APERTURE_DB_METRICS === '1') instrument(dynamo);
