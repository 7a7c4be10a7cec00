// A fan-out to 2,500 followers runs in bounded steps, one stream record after another: chunks
// of FANOUT_CHUNK followers until a step's time budget is spent. A step that fails half-way
// through its writes is retried from where it started: in the end every follower has the post
// exactly once, the job is gone, and nothing went to the dead letters. The first test gives a
// step one chunk (a budget of 0), so the failure lands in a later step; the second gives it
// time for all of them, so one step walks every chunk.
import '../support/own-stream-table';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, dynamo, TABLE } from '../../lib/db/client';
import { batchGet, batchWrite } from '../../lib/db/batch';
import * as keys from '../../lib/keys';
import { newId } from '../../lib/ids';
import { followEdge } from '../../lib/graph/edges';
import { FANOUT_CHUNK, FANOUT_STEP_BUDGET_MS, fanoutJob, fanoutTuning } from '../../lib/feed/fanout';
import { makePost, users } from '../support/posts';
import { getItem } from '../support/db';
import { eventually, startTestStream, type TestStream } from '../support/stream';

const FOLLOWERS = 2_500;
let stream: TestStream;
afterAll(() => stream?.poller.stop());

/** How many of the readers' feeds hold the post (BatchGets of 100 keys). */
const entriesOf = async (postId: string, readers: string[]): Promise<number> =>
  (await batchGet(readers.map((r) => keys.homeEntry(r, postId)), { projection: 'authorId' })).size;

afterEach(() => { fanoutTuning.stepBudgetMs = FANOUT_STEP_BUDGET_MS; });

/** `n` followers of `authorId`, as edges (the fan-out reads the author's followers index; nothing else of them). */
async function followersOf(authorId: string, n: number): Promise<string[]> {
  const followerIds = Array.from({ length: n }, () => newId());
  const at = new Date(Date.now() - 60_000).toISOString();
  // Written without their `type`, so the consumer's filter passes them over: their own backfills
  // are not this test's subject.
  await batchWrite(followerIds.map((f) => {
    const { type: _type, ...edge } = followEdge(f, authorId, at);
    return { PutRequest: { Item: edge } };
  }), { parallel: 8 });
  return followerIds;
}

it('resumes a fan-out that failed half-way, without duplicates or gaps', async () => {
  expect(FOLLOWERS).toBeGreaterThan(2 * FANOUT_CHUNK); // at least three steps
  fanoutTuning.stepBudgetMs = 0; // one chunk a step
  const [author] = await users(1);
  const followerIds = await followersOf(author.id, FOLLOWERS);

  // The 60th BatchWrite the consumer sends (in the fan-out's second step: 40 per step of 1,000) fails once.
  let batchWrites = 0;
  let injected = 0;
  dynamo.middlewareStack.add((next, context) => async (args) => {
    if (context.commandName === 'BatchWriteItemCommand' && ++batchWrites === 60) {
      injected++;
      throw new Error('injected failure half-way through a fan-out step');
    }
    return next(args);
  }, { step: 'initialize', name: 'injectFailure' });
  // Any DynamoDB request of this file slower than 2 s is reported (this test once outlived its
  // time in a full run: the report says where the time went).
  dynamo.middlewareStack.add((next, context) => async (args) => {
    const t0 = Date.now();
    try {
      return await next(args);
    } finally {
      const ms = Date.now() - t0;
      if (ms > 2_000) process.stderr.write(`[fanout-resume] slow ${context.commandName}: ${ms} ms\n`);
    }
  }, { step: 'initialize', name: 'reportSlow' });
  stream = startTestStream();

  const post = await makePost(author);
  // Where the test is, for a run that outlives its time (it once did, in a full run).
  const started = Date.now();
  const mark = (what: string) => process.stderr.write(`[fanout-resume] ${what} at ${Date.now() - started} ms (${stream.invocations} invocations, ${batchWrites} BatchWrites)\n`);
  mark('post created');
  // Every step is a stream record of its own: once the stream is idle, the fan-out is over.
  await stream.poller.idle();
  mark('stream idle');
  const count = await eventually(() => entriesOf(post._id, followerIds), (n) => n === FOLLOWERS, 30_000);
  mark(`${count} entries`);
  expect(injected).toBe(1);
  expect(count).toBe(FOLLOWERS);
  // The job finished: its item is gone once the last step is done.
  const job = await eventually(() => getItem(keys.job('fanout', `${post._id}#add`)), (v) => v === undefined);
  mark('job read');
  expect(job).toBeUndefined();
  // No follower has a second entry: the feed partition holds each post once by its key, and
  // the whole partition of a follower is exactly this one post.
  const sample = await db.send(new QueryCommand({
    TableName: TABLE, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': keys.homeFeed(followerIds[1234]!) },
  }));
  mark('sample read');
  expect(sample.Items?.map((i) => i.SK)).toEqual([post._id]);
  expect(stream.deadLetters).toEqual([]);
  // The failed step was delivered again: more invocations than steps.
  expect(stream.invocations).toBeGreaterThanOrEqual(Math.ceil(FOLLOWERS / FANOUT_CHUNK) + 1);
}, 120_000);

it('a step with time for every chunk walks them all at once: no job left to run, every follower once', async () => {
  fanoutTuning.stepBudgetMs = 600_000;
  const [author] = await users(1);
  const followerIds = await followersOf(author.id, FOLLOWERS);
  stream ??= startTestStream();
  const steps = jest.spyOn(fanoutJob, 'step');
  try {
    const post = await makePost(author);
    // The first step runs inside the post's own reaction (lib/events/jobs.ts startJob): with
    // every chunk done there, no job item is written and no later step runs.
    await stream.poller.idle();
    expect(await eventually(() => entriesOf(post._id, followerIds), (n) => n === FOLLOWERS, 30_000)).toBe(FOLLOWERS);
    expect(steps).toHaveBeenCalledTimes(1);
    expect(await getItem(keys.job('fanout', `${post._id}#add`))).toBeUndefined();
  } finally {
    steps.mockRestore();
  }
}, 120_000);
