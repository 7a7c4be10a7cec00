// A Web Push retry (lib/live/push.ts), invoked asynchronously by the stream consumer or by itself:
// waits until its time, tries again, schedules the next or, after the last attempt, fails into
// its on-failure queue (functions/live/functions.json: no Lambda retries of its own).
import { retryPush, type PushRetry } from '../../lib/live/push';

export const handler = async (event: PushRetry): Promise<void> => retryPush(event);
