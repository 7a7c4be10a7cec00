// A batch of one post's like records through the stream consumer's router (lib/events/changes.ts
// react, the reactions of lib/posts/recent-likers.ts): the runs for one post take turns, so the
// first brings the item beside the post up to date and the others find their like shown. No
// stream runs in this file (the shared table): the records are built from the real like edges.
// The request counter is the benchmark's (scripts/bench/measure.mjs), installed before the modules load.
/* eslint-disable @typescript-eslint/no-require-imports */
(require('../../scripts/bench/measure.mjs') as { installDbMetrics: () => void }).installDbMetrics();
const { makePost, users } = require('../support/posts') as typeof import('../support/posts');
const { call } = require('../support/invoke') as typeof import('../support/invoke');
const { getItem } = require('../support/db') as typeof import('../support/db');
const keys = require('../../lib/keys') as typeof import('../../lib/keys');
const { react } = require('../../lib/events/changes') as typeof import('../../lib/events/changes');
const { likersReactions } = require('../../lib/posts/recent-likers') as typeof import('../../lib/posts/recent-likers');
const { marshall } = require('@aws-sdk/util-dynamodb') as typeof import('@aws-sdk/util-dynamodb');
const { handler: likeH } = require('../../functions/posts/like') as typeof import('../../functions/posts/like');
/* eslint-enable @typescript-eslint/no-require-imports */
import type { DynamoDBRecord } from 'aws-lambda';

const SINK = Symbol.for('aperture.dbMetrics');
type Rec = { command: string };
async function requestsOf(run: () => Promise<unknown>): Promise<Rec[]> {
  (globalThis as Record<symbol, unknown>)[SINK] = [];
  await run();
  return (globalThis as Record<symbol, Rec[]>)[SINK] ?? [];
}
const count = (recs: Rec[], command: string) => recs.filter((r) => r.command === command).length;

it('a batch of 20 likes of one post: one index Query and one write, every record done', async () => {
  const [author, ...fans] = await users(21);
  const p = await makePost(author);
  for (const f of fans) expect((await call(likeH, 'POST /posts/like/{post_id}', { token: f.token, params: { post_id: p._id } })).status).toBe(200);
  const records = await Promise.all(fans.map(async (f, i): Promise<DynamoDBRecord> => {
    const edge = (await getItem(keys.postLike(p._id, f.id)))!;
    return {
      eventName: 'INSERT',
      dynamodb: { Keys: marshall(keys.postLike(p._id, f.id)) as never, NewImage: marshall(edge) as never, SequenceNumber: String(1000 + i) },
    };
  }));

  let out: Awaited<ReturnType<typeof react>> | undefined;
  const recs = await requestsOf(async () => { out = await react(records, likersReactions); });
  expect(out).toEqual({ batchItemFailures: [] });
  // Side by side, each of the ten parallel runs would have queried the index and raced to write.
  expect(count(recs, 'QueryCommand')).toBe(1);
  expect(count(recs, 'PutItemCommand')).toBe(1);
  expect(count(recs, 'BatchGetItemCommand')).toBe(20);
  expect(await getItem(keys.postLikers(p._id))).toMatchObject({ ids: fans.slice(-10).reverse().map((f) => f.id), v: 20 });

  // Delivered again (a retry from the first record): nothing is written.
  const again = await requestsOf(async () => { out = await react(records, likersReactions); });
  expect(out).toEqual({ batchItemFailures: [] });
  expect(count(again, 'PutItemCommand')).toBe(0);
  expect(count(again, 'QueryCommand')).toBe(0);
});
