// The cleanup sweeper: not an HTTP route, run on a schedule (functions.json). It starts the
// worker again for every job that no worker has touched for STALLED_AFTER_MS, so a deletion
// whose cleanup trigger failed is cleaned up anyway, within one schedule period.
import { stalledJobs, STALLED_AFTER_MS } from '../../lib/cleanup/sweeper';
import { triggerCleanup } from '../../lib/cleanup/trigger';
import { logger } from '../../lib/log';

export async function handler(): Promise<{ stalled: number; restarted: number }> {
  const jobs = await stalledJobs(new Date(Date.now() - STALLED_AFTER_MS));
  const started = await Promise.all(jobs.map((job) => triggerCleanup(job.kind, job.id)));
  const restarted = started.filter(Boolean).length;
  logger.info('cleanup_sweep', { stalled: jobs.length, restarted, oldest: jobs[0]?.touchedAt });
  // Some could not be started: fail the run so that it shows in the function's error metric.
  if (restarted < jobs.length) throw new Error(`Could not restart ${jobs.length - restarted} of ${jobs.length} stalled cleanup jobs`);
  return { stalled: jobs.length, restarted };
}
