// One DynamoDB Local for the whole run, on a free loopback port; every test file shares
// the table and keeps to its own freshly registered users.
import { ensureTable, startDynamoLocal } from '../../scripts/lib/local-dynamodb.mjs';

export const TEST_TABLE = 'aperture-test';

export default async function globalSetup(): Promise<void> {
  const db = await startDynamoLocal();
  await ensureTable(db.endpoint, TEST_TABLE);
  process.env.DYNAMODB_ENDPOINT = db.endpoint;
  process.env.TABLE_NAME = TEST_TABLE;
  (globalThis as Record<string, unknown>).__DYNAMO__ = db;
}
