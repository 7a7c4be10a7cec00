#!/usr/bin/env node
// `npm run migrate -- [--stage <stage>]`: the one-off upgrades of a table whose items were
// written by an older version of the service; each is idempotent, so running it twice, or on a
// table that never needed it, changes nothing. Today there is one: block mirrors
// (scripts/lib/block-mirrors.mjs), for a stage deployed before the block lists came from the
// user's own partition. Without --stage: the running `npm start` stack (`--persist` data). With
// --stage <stage>: the table `aperture-<stage>` (TABLE_NAME overrides) through the AWS
// credentials and region of the environment (docs/OPERATIONS.md, "Upgrading a stage").
import { readFileSync } from 'node:fs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { localClient } from './lib/local-dynamodb.mjs';
import { localStack } from './lib/local-stack.mjs';
import { migrateBlockMirrors } from './lib/block-mirrors.mjs';

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
