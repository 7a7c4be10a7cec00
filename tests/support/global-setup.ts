// One DynamoDB Local for the whole run, on a free loopback port; every test file shares
// the table and keeps to its own freshly registered users. One local S3 server too (the
// media storage); the S3 events it emits are written to a directory, where a test waits
// for the event of its own upload (tests/support/media.ts) and hands it to the processing
// handler, as S3 hands it to Lambda.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureTable, startDynamoLocal } from '../../scripts/lib/local-dynamodb.mjs';
import { startLocalS3 } from '../../scripts/lib/local-s3.mjs';
import { startLocalSes } from '../../scripts/lib/local-ses.mjs';

export const TEST_TABLE = 'aperture-test';

export default async function globalSetup(): Promise<void> {
  const eventsDir = mkdtempSync(join(tmpdir(), 'aperture-s3-events-'));
  let seq = 0;
  const [db, s3, mail] = await Promise.all([
    startDynamoLocal(),
    startLocalS3({
      onEvent: (event: { Records: { s3: { object: { key: string } } }[] }) => {
        const key = event.Records[0]!.s3.object.key;
        writeFileSync(join(eventsDir, `${encodeURIComponent(key)}.${String(++seq).padStart(6, '0')}.json`), JSON.stringify(event));
      },
    }),
    // The mail server (SES v2-compatible): tests read the messages sent from its GET /store (tests/support/mail.ts).
    startLocalSes(),
  ]);
  // No change stream on the shared table: no test reads it (the stream tests have tables of
  // their own, tests/support/own-stream-table.ts), and on DynamoDB Local a table with a stream
  // makes every other stream table's writes slower as it fills (scripts/lib/local-dynamodb.mjs).
  await ensureTable(db.endpoint, TEST_TABLE, { stream: false });
  process.env.DYNAMODB_ENDPOINT = db.endpoint;
  process.env.TABLE_NAME = TEST_TABLE;
  process.env.S3_ENDPOINT = s3.endpoint;
  process.env.MEDIA_BUCKET = s3.bucket;
  process.env.S3_EVENTS_DIR = eventsDir;
  process.env.SES_ENDPOINT = mail.endpoint;
  (globalThis as Record<string, unknown>).__DYNAMO__ = db;
  (globalThis as Record<string, unknown>).__S3__ = { stop: () => s3.stop(), eventsDir };
  (globalThis as Record<string, unknown>).__SES__ = mail;
}
