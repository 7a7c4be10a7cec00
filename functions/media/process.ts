// Media processing: not an HTTP route. Invoked by the media bucket's ObjectCreated event
// notification on `uploads/` (resources/media.yml); locally by npm start's S3-compatible
// server through serverless-offline's Lambda endpoint. A throw makes Lambda retry the event
// (asynchronous invocation); processing is idempotent.
import type { S3Event } from 'aws-lambda';
import { processUpload, type ProcessOutcome } from '../../lib/media/process';
import { logger } from '../../lib/log';

export async function handler(event: S3Event): Promise<{ outcomes: ProcessOutcome[] }> {
  const outcomes: ProcessOutcome[] = [];
  for (const record of event.Records ?? []) {
    if (!record.eventName?.startsWith('ObjectCreated:')) continue;
    // Keys arrive URL-encoded, spaces as '+'.
    const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));
    const outcome = await processUpload(key);
    logger.info('media_upload_event', { key, outcome });
    outcomes.push(outcome);
  }
  return { outcomes };
}
