// Import FIRST in a test file that reads its table's change stream (tests/support/stream.ts
// startTestStream): a table of its own (own-table.ts), with the stream. Only such files get
// one: on DynamoDB Local every stream makes writes to the other stream tables slower
// (scripts/lib/local-dynamodb.mjs ensureTable).
import './own-table';

// Read by own-table's beforeAll, which runs after this module.
process.env.APERTURE_OWN_TABLE_STREAM = '1';
