// Import FIRST in a test file whose assertions depend on table-wide state (the explore
// feed counts every post in the table): the file then gets a table of its own, so other
// test files writing at the same time cannot change its totals. Without a change stream:
// a file that reads its table's stream imports own-stream-table instead.
import { ensureTable } from '../../scripts/lib/local-dynamodb.mjs';

const name = `aperture-test-own-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
process.env.TABLE_NAME = name;

beforeAll(async () => {
  await ensureTable(process.env.DYNAMODB_ENDPOINT!, name, { stream: process.env.APERTURE_OWN_TABLE_STREAM === '1' });
});
