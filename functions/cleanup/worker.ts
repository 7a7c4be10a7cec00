// The cleanup worker: not an HTTP route. Invoked asynchronously by lib/cleanup/trigger.ts
// after a deletion; it drains the job until little of its time is left, then hands the
// rest to a fresh invocation of itself, so a job of any size finishes.
import type { Context } from 'aws-lambda';
import * as z from 'zod/mini';
import { ID_PATTERN } from '../../lib/ids';
import { runCleanup } from '../../lib/cleanup/worker';
import { triggerCleanup } from '../../lib/cleanup/trigger';
import { logger } from '../../lib/log';

export const cleanupEvent = z.strictObject({
  kind: z.enum(['post', 'comment']),
  id: z.string().check(z.regex(ID_PATTERN)),
});

/** Time kept back for the last page and the re-invocation. */
const RESERVE_MS = 20_000;

export async function handler(event: unknown, context: Context): Promise<{ done: boolean; deleted: number }> {
  const job = z.parse(cleanupEvent, event);
  const result = await runCleanup(job.kind, job.id, { keepGoing: () => context.getRemainingTimeInMillis() > RESERVE_MS });
  logger.info('cleanup_run', { ...job, ...result });
  // Unfinished: continue in a fresh invocation. Throwing when that is refused makes Lambda retry this one.
  if (!result.done && !(await triggerCleanup(job.kind, job.id))) throw new Error('Could not re-invoke the cleanup worker');
  return result;
}
