// The cleanup sweeper finds the jobs no worker has taken up for STALLED_AFTER_MS (a refused
// trigger, a dead worker chain) with one Query of GSI1, and starts the worker for each.
// Its own table: which jobs are stalled is table-wide state.
import '../support/own-table';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { call } from '../support/invoke';
import { getItem } from '../support/db';
import { makePost, users } from '../support/posts';
import { handler as del } from '../../functions/posts/delete';
import { handler as sweeper } from '../../functions/cleanup/sweeper';
import { runCleanup } from '../../lib/cleanup/worker';
import { markRestarted, STALLED_AFTER_MS, stalledJobs } from '../../lib/cleanup/sweeper';
import { db, TABLE } from '../../lib/db/client';
import * as keys from '../../lib/keys';

async function deletedPost(): Promise<string> {
  const [author] = await users(1);
  const p = await makePost(author!);
  expect((await call(del, 'DELETE /posts/{post_id}', { token: author!.token, params: { post_id: p._id } })).status).toBe(200);
  return p._id;
}

/** Moves a job's last touch into the past, as if it had waited that long. */
async function age(postId: string, ms: number): Promise<void> {
  const job = await getItem(keys.cleanupJob('post', postId));
  const then = new Date(Date.parse(String(job!.createdAt)) - ms).toISOString();
  await db.send(new UpdateCommand({
    TableName: TABLE, Key: keys.cleanupJob('post', postId),
    UpdateExpression: 'SET GSI1SK = :sk', ExpressionAttributeValues: { ':sk': keys.cleanupJobIndex('post', postId, then).GSI1SK },
  }));
}

const ids = (jobs: { id: string }[]) => jobs.map((j) => j.id);

describe('cleanup sweeper', () => {
  it('finds a job by the last time a worker touched it, and forgets it once the worker has finished', async () => {
    const postId = await deletedPost();
    const job = await getItem(keys.cleanupJob('post', postId));
    expect(job).toMatchObject({ GSI1PK: 'CLEANUPS', kind: 'post', targetId: postId });
    expect(ids(await stalledJobs(new Date(Date.now() - STALLED_AFTER_MS)))).not.toContain(postId);
    const touchedBefore = new Date(Date.now() + 1);
    await new Promise((r) => setTimeout(r, 5));
    expect(await stalledJobs(touchedBefore)).toContainEqual({ kind: 'post', id: postId, touchedAt: job!.createdAt, restarts: 0, sortKey: job!.GSI1SK });

    // A worker that stops at once has still taken the job up: it is no longer stalled as of then.
    expect(await runCleanup('post', postId, { keepGoing: () => false })).toEqual({ done: false, deleted: 0 });
    expect(ids(await stalledJobs(touchedBefore))).not.toContain(postId);
    expect(Date.parse(String((await getItem(keys.cleanupJob('post', postId)))!.touchedAt))).toBeGreaterThanOrEqual(touchedBefore.getTime());

    expect(await runCleanup('post', postId, { keepGoing: () => true, settleMs: 0 })).toMatchObject({ done: true });
    expect(await getItem(keys.cleanupJob('post', postId))).toBeUndefined();
    expect(ids(await stalledJobs(new Date(Date.now() + 60_000)))).not.toContain(postId);
    // A finished job stays finished: a late worker finds nothing and creates nothing.
    expect(await runCleanup('post', postId, { keepGoing: () => true, settleMs: 0 })).toEqual({ done: true, deleted: 0 });
    expect(await getItem(keys.cleanupJob('post', postId))).toBeUndefined();
  });

  it('restarts the oldest stalled jobs first, and fails the run when a restart is refused', async () => {
    const [older, newer, fresh] = [await deletedPost(), await deletedPost(), await deletedPost()];
    await age(older, 2 * STALLED_AFTER_MS);
    await age(newer, STALLED_AFTER_MS + 60_000);
    const stalled = ids(await stalledJobs(new Date(Date.now() - STALLED_AFTER_MS)));
    // The first test finished its job: in this table only these three exist.
    expect(stalled).toEqual([older, newer]);
    expect(ids(await stalledJobs(new Date(Date.now() - STALLED_AFTER_MS), 1))).toEqual([older]);
    expect(stalled).not.toContain(fresh);
    // A sweep runs as of its schedule's time: one scheduled 5 minutes ago finds only the job
    // stalled 30 minutes ago, and one scheduled before any of them none.
    await expect(sweeper({ time: new Date(Date.now() - 5 * 60_000).toISOString() })).rejects.toThrow('Could not restart 1 of 1 stalled cleanup jobs');
    await expect(sweeper({ time: '2000-01-01T00:00:00Z' })).resolves.toEqual({ stalled: 0, restarted: 0 });
    // The test stage has no Lambda endpoint to start the worker on: every restart is refused,
    // and the run fails so that the function's error metric shows it (docs/OPERATIONS.md).
    await expect(sweeper()).rejects.toThrow(`Could not restart ${stalled.length} of ${stalled.length} stalled cleanup jobs`);
  });

  it('moves a restarted job to the end of the queue and counts it, unless a worker touched it first', async () => {
    const [restarted, raced] = [await deletedPost(), await deletedPost()];
    await age(restarted, 2 * STALLED_AFTER_MS);
    await age(raced, 2 * STALLED_AFTER_MS);
    const cutoff = new Date(Date.now() - STALLED_AFTER_MS);
    const read = await stalledJobs(cutoff, 1000);
    const job = (id: string) => read.find((j) => j.id === id)!;
    expect(job(restarted).restarts).toBe(0);

    await markRestarted(job(restarted));
    // A worker takes `raced` up between the sweeper's read and its mark: the mark must not
    // undo the worker's stamp (nor count a restart that a worker had already answered).
    expect(await runCleanup('post', raced, { keepGoing: () => false })).toEqual({ done: false, deleted: 0 });
    const stamped = (await getItem(keys.cleanupJob('post', raced)))!.GSI1SK;
    await markRestarted(job(raced));

    expect(ids(await stalledJobs(cutoff, 1000))).not.toContain(restarted);
    expect(ids(await stalledJobs(cutoff, 1000))).not.toContain(raced);
    expect(await getItem(keys.cleanupJob('post', restarted))).toMatchObject({ restarts: 1 });
    const racedItem = (await getItem(keys.cleanupJob('post', raced)))!;
    expect(racedItem.GSI1SK).toBe(stamped);
    expect(racedItem.restarts).toBeUndefined();
    // Its next stall shows the count.
    await age(restarted, 2 * STALLED_AFTER_MS);
    expect((await stalledJobs(cutoff, 1000)).find((j) => j.id === restarted)).toMatchObject({ restarts: 1 });
    // A mark for a job that has finished creates nothing.
    await runCleanup('post', restarted, { keepGoing: () => true, settleMs: 0 });
    await markRestarted(job(restarted));
    expect(await getItem(keys.cleanupJob('post', restarted))).toBeUndefined();
    for (const id of [raced]) await runCleanup('post', id, { keepGoing: () => true, settleMs: 0 });
  });

  it('does nothing when no job is stalled', async () => {
    for (const job of await stalledJobs(new Date(Date.now() + 60_000), 1000)) await runCleanup(job.kind, job.id, { keepGoing: () => true, settleMs: 0 });
    await expect(sweeper()).resolves.toEqual({ stalled: 0, restarted: 0 });
  });
});
