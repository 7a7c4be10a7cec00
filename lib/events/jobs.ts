// Background work too large for one step (a fan-out to 10,000 followers, an unfollow's
// removals) runs as a job: a small item holding how far the work has got (`cursor`). Each
// step does bounded work (its kind's bound: a chunk count, items or time) and moves the cursor
// with a conditional write; that write is itself a change on the stream, which runs the next
// step. So no invocation does more than a step's bound, a failed step is retried from the cursor it started at (Lambda's retries, then
// the on-failure destination), and a step delivered twice cannot move the job twice (the
// condition names the cursor it started from). Steps must be idempotent: a retried step
// redoes its chunk.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import * as keys from '../keys';
import type { Change, Reaction } from './changes';

export interface JobKind<P extends Record<string, unknown>> {
  kind: string;
  /** One bounded chunk of work from `cursor` (undefined: the start); the next cursor, or undefined when done. */
  step(params: P, cursor: string | undefined): Promise<string | undefined>;
}

export interface JobItem {
  PK: string;
  SK: string;
  type: 'JOB';
  kind: string;
  id: string;
  params: Record<string, unknown>;
  cursor: string;
  steps: number;
  createdAt: string;
}

const ignoreConditionFailed = (err: unknown) => {
  if (!(err instanceof ConditionalCheckFailedException)) throw err;
};

/**
 * Runs the first step at once and, when work is left, records the job so the stream runs the
 * rest. A job of that kind and id that already exists is left alone (a replayed start).
 */
export async function startJob<P extends Record<string, unknown>>(job: JobKind<P>, id: string, params: P): Promise<void> {
  const cursor = await job.step(params, undefined);
  if (cursor === undefined) return;
  const item: JobItem = {
    ...keys.job(job.kind, id), type: 'JOB', kind: job.kind, id, params, cursor, steps: 1, createdAt: new Date().toISOString(),
  };
  await db.send(new PutCommand({ TableName: TABLE, Item: item, ConditionExpression: 'attribute_not_exists(PK)' })).catch(ignoreConditionFailed);
}

/** The reaction that runs the next step of a job of these kinds whenever its item is written. */
export function jobReaction(kinds: JobKind<any>[]): Reaction { // eslint-disable-line @typescript-eslint/no-explicit-any
  const byKind = new Map(kinds.map((k) => [k.kind, k]));
  return {
    name: 'job-step',
    matches: (c: Change) => c.event !== 'REMOVE' && c.newImage?.type === 'JOB' && byKind.has(String(c.newImage.kind)),
    run: async (c: Change) => {
      const job = c.newImage as unknown as JobItem;
      const next = await byKind.get(job.kind)!.step(job.params, job.cursor);
      const key = keys.job(job.kind, job.id);
      if (next === undefined) {
        await db.send(new DeleteCommand({
          TableName: TABLE, Key: key, ConditionExpression: '#cursor = :at', ExpressionAttributeNames: { '#cursor': 'cursor' }, ExpressionAttributeValues: { ':at': job.cursor },
        })).catch(ignoreConditionFailed);
        return;
      }
      await db.send(new UpdateCommand({
        TableName: TABLE,
        Key: key,
        // Both names are reserved words of DynamoDB's expressions.
        UpdateExpression: 'SET #cursor = :next, #steps = #steps + :one',
        ConditionExpression: '#cursor = :at',
        ExpressionAttributeNames: { '#cursor': 'cursor', '#steps': 'steps' },
        ExpressionAttributeValues: { ':next': next, ':at': job.cursor, ':one': 1 },
      })).catch(ignoreConditionFailed);
    },
  };
}
