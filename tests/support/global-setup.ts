// One DynamoDB Local per jest worker, each on a free loopback port with the table; a worker's
// test files share its table and keep to their own freshly registered users. One per worker,
// not one for the run: DynamoDB Local serves requests one after another, so the two workers'
// files queued behind each other there, and beside a CPU-bound process their hottest races
// (25 likes on one post, a feed walk while posts arrive) outlived their limits. One local S3 server too (the
// media storage); the S3 events it emits are written to a directory, where a test waits
// for the event of its own upload (tests/support/media.ts) and hands it to the processing
// handler, as S3 hands it to Lambda.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureTable, startDynamoLocal } from '../../scripts/lib/local-dynamodb.mjs';
import { startLocalS3 } from '../../scripts/lib/local-s3.mjs';

export const TEST_TABLE = 'aperture-test';

export default async function globalSetup(globalConfig: { maxWorkers: number }): Promise<void> {
  const eventsDir = mkdtempSync(join(tmpdir(), 'aperture-s3-events-'));
  let seq = 0;
  const workers = Math.max(1, globalConfig.maxWorkers);
  const [dbs, s3] = await Promise.all([
    Promise.all(Array.from({ length: workers }, () => startDynamoLocal())),
    startLocalS3({
      onEvent: (event: { Records: { s3: { object: { key: string } } }[] }) => {
        const key = event.Records[0]!.s3.object.key;
        writeFileSync(join(eventsDir, `${encodeURIComponent(key)}.${String(++seq).padStart(6, '0')}.json`), JSON.stringify(event));
      },
    }),
  ]);
  await Promise.all(dbs.map((db) => ensureTable(db.endpoint, TEST_TABLE)));
  // tests/support/env.ts gives each worker its own (JEST_WORKER_ID).
  process.env.DYNAMODB_ENDPOINTS = JSON.stringify(dbs.map((db) => db.endpoint));
  process.env.DYNAMODB_ENDPOINT = dbs[0]!.endpoint;
  process.env.TABLE_NAME = TEST_TABLE;
  process.env.S3_ENDPOINT = s3.endpoint;
  process.env.MEDIA_BUCKET = s3.bucket;
  process.env.S3_EVENTS_DIR = eventsDir;
  (globalThis as Record<string, unknown>).__DYNAMO__ = { stop: () => Promise.all(dbs.map((db) => db.stop())) };
  (globalThis as Record<string, unknown>).__S3__ = { stop: () => s3.stop(), eventsDir };
}
