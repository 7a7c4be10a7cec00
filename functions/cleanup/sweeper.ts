// The cleanup sweeper: not an HTTP route, run on a schedule (functions.json). It starts the
// worker again for every job that nobody has touched for STALLED_AFTER_MS, so a deletion
// whose cleanup trigger failed is cleaned up anyway, within two schedule periods (30 minutes).
import { markRestarted, stalledJobs, STALLED_AFTER_MS } from '../../lib/cleanup/sweeper';
import { triggerCleanup } from '../../lib/cleanup/trigger';
import { logger } from '../../lib/log';

/** The sweep runs as of its schedule's time (EventBridge's `time`; now when invoked by hand). */
export async function handler(event?: { time?: string }): Promise<{ stalled: number; restarted: number }> {
  const at = event?.time && !Number.isNaN(Date.parse(event.time)) ? Date.parse(event.time) : Date.now();
  const jobs = await stalledJobs(new Date(at - STALLED_AFTER_MS));
  const started = await Promise.all(jobs.map(async (job) => {
    if (!(await triggerCleanup(job.kind, job.id))) return false;
    await markRestarted(job);
    return true;
  }));
  const restarted = started.filter(Boolean).length;
  logger.info('cleanup_sweep', {
    stalled: jobs.length,
    restarted,
    oldest: jobs[0]?.touchedAt,
    mostRestarts: Math.max(0, ...jobs.map((j) => j.restarts)),
  });
  // Some could not be started: fail the run so that it shows in the function's error metric.
  if (restarted < jobs.length) throw new Error(`Could not restart ${jobs.length - restarted} of ${jobs.length} stalled cleanup jobs`);
  return { stalled: jobs.length, restarted };
}
