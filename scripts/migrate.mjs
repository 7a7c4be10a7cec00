#!/usr/bin/env node
// `npm run migrate -- [--stage <stage>]`: the one-off upgrades of a table whose items were
// written by an older version of the service; each is idempotent, so running it twice, or on a
// table that never needed it, changes nothing. Today there are three: block mirrors
// (scripts/lib/block-mirrors.mjs), for a stage deployed before the block lists came from the
// user's own partition, the recent ids and recent likers items (scripts/lib/recent-backfill.mjs),
// for users, posts and comments written before the stream kept them, and the trace records'
// sort keys (scripts/lib/trace-actors.mjs), for records written before their actor led the key. Without --stage: the running `npm start` stack (`--persist` data). With
// --stage <stage>: the table `aperture-<stage>` (TABLE_NAME overrides) through the AWS
// credentials and region of the environment (docs/OPERATIONS.md, "Upgrading a stage").
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { localClient } from './lib/local-dynamodb.mjs';
import { localStack } from './lib/local-stack.mjs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { migrateBlockMirrors } from './lib/block-mirrors.mjs';
import { migrateRecent } from './lib/recent-backfill.mjs';
import { migrateTraceActors } from './lib/trace-actors.mjs';

const local = JSON.parse(readFileSync(new URL('../config/local.json', import.meta.url), 'utf8'));
const args = process.argv.slice(2);
const at = args.indexOf('--stage');
const stage = at >= 0 ? args[at + 1] : undefined;
if (at >= 0 && !stage) {
  process.stderr.write('usage: npm run migrate -- [--stage <stage>]\n');
  process.exit(2);
}
const deployed = stage !== undefined && stage !== 'local';
const table = process.env.TABLE_NAME || (deployed ? `aperture-${stage}` : local.tableName);
const client = deployed ? new DynamoDBClient({}) : localClient(localStack().dynamodbEndpoint);
const log = (line) => process.stdout.write(`${line}\n`);
const done = await migrateBlockMirrors({ client, table, log });
log(`block mirrors of ${table}: ${done.edges} block edges, ${done.written} mirrors written, ${done.present} already there, ${done.removed} removed again (unblocked during the run)`);
const traced = await migrateTraceActors({ client, table, log });
log(`trace records of ${table}: ${traced.records} records, ${traced.moved} moved under their actor, ${traced.gone} gone before their move`);

// The recent ids and likers: the stream's own refreshes (lib/), bundled for this table. They
// read only the table, its endpoint and the region from lib/config.ts, which must be the
// Scan's: a deployed stage's region as the SDK resolved it for the Scan (environment or
// profile), and no local endpoint left over in the environment. STAGE=local spares them the
// settings only a deployed function has (its signing keys' parameter, its media bucket).
if (deployed) {
  delete process.env.DYNAMODB_ENDPOINT;
  process.env.AWS_REGION = await client.config.region();
} else {
  process.env.DYNAMODB_ENDPOINT = localStack().dynamodbEndpoint;
}
Object.assign(process.env, { STAGE: 'local', TABLE_NAME: table });
const work = mkdtempSync(join(tmpdir(), 'aperture-migrate-'));
try {
  const outfile = join(work, 'backfill.cjs');
  await build({
    entryPoints: [new URL('./lib/backfill-entry.ts', import.meta.url).pathname], outfile,
    bundle: true, platform: 'node', target: 'node22', format: 'cjs', logLevel: 'warning',
  });
  const recent = await migrateRecent({ client, table, lib: createRequire(import.meta.url)(outfile), log });
  log(`recent ids and likers of ${table}: ${recent.users} users behind their edges (${recent.usersMoved} written), ${recent.liked} liked posts and comments (${recent.likersMoved} items written), ${recent.behind} left to the stream (an index not ready, or likes moving)${recent.left.length ? `: ${recent.left.join(' ')}` : ''}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
