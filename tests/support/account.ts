// The deletion of an account, as the tests see it: every item naming it, and the wait for its
// cleanup (contract section 13: within 60 seconds no item of the account remains).
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../../lib/db/client';
import { runCleanup } from '../../lib/cleanup/worker';
import { stalledJobs } from '../../lib/cleanup/sweeper';
import { eventually } from './stream';
import { getItem } from './db';
import * as keys from '../../lib/keys';

export const SIXTY_SECONDS = 60_000;

/** Every item of the table that names the user anywhere, trace records aside (they stay until they expire). */
export async function itemsNaming(userId: string): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db.send(new ScanCommand({ TableName: TABLE, ExclusiveStartKey: start }));
    for (const item of res.Items ?? []) {
      if (String(item.PK).startsWith('TRACE#')) continue;
      if (JSON.stringify(item).includes(userId)) found.push(item);
    }
    start = res.LastEvaluatedKey;
  } while (start);
  return found;
}

/** What the deployed trigger does after a post or comment deletion: the cleanup worker drains its children. */
export async function drainCleanups(): Promise<void> {
  for (const job of await stalledJobs(new Date(Date.now() + 3_600_000), 1_000)) {
    await runCleanup(job.kind, job.id, { keepGoing: () => true, settleMs: 0 });
  }
}

/**
 * Waits until no item of the account remains, within `ms` of the call (made right after the
 * deletion), draining the worker's jobs meanwhile: first for its GONE item, which its own jobs
 * remove last (a cheap read, polled often), then for the feed entries of its posts, which go
 * with the posts' own removals (a scan of the table, polled once a second: scans slow DynamoDB
 * Local down for everything else).
 */
export async function cleanedUp(userId: string, ms = SIXTY_SECONDS): Promise<void> {
  const started = Date.now();
  const deadline = started + ms;
  await eventually(async () => { await drainCleanups(); return getItem(keys.gone(userId)); }, (g) => g === undefined, ms);
  let left = await itemsNaming(userId);
  while (left.length && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 1_000));
    await drainCleanups();
    left = await itemsNaming(userId);
  }
  // What is left, by type, and a few of them (a busy account's leftovers would be thousands).
  const byType: Record<string, number> = {};
  for (const i of left) byType[String(i.type)] = (byType[String(i.type)] ?? 0) + 1;
  expect({ byType, some: left.slice(0, 3) }).toEqual({ byType: {}, some: [] });
  process.stderr.write(`account ${userId}: no item left ${Date.now() - started} ms after its deletion\n`);
}
