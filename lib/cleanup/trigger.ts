// Starts the cleanup worker (functions/cleanup/worker.ts) asynchronously: a Lambda Invoke
// with InvocationType Event, sent as a SigV4-signed HTTP request (lib/aws/signed.ts). The
// signer, the credential chain and the hash are the ones the DynamoDB client already bundles,
// so this adds no SDK client to any bundle (docs/ARCHITECTURE.md, "Posts and explore").
//   AWS:        https://lambda.<region>.amazonaws.com (IAM: lambda:InvokeFunction on the worker)
//   npm start:  serverless-offline's Lambda endpoint (PORT+2), from CLEANUP_INVOKE_ENDPOINT
//   tests:      no endpoint on the local stage: nothing is sent; the tests run the worker.
import { SendFailed, signedPost } from '../aws/signed';
import { dynamo } from '../db/client';
import { config } from '../config';
import { logger } from '../log';
import type { CleanupKind } from './jobs';

// Read when a cleanup is asked for, not when the module loads: the functions that bundle this
// module without calling it (the post creation, through lib/posts/write.ts) keep none of it.
const endpoint = () => process.env.CLEANUP_INVOKE_ENDPOINT
  || (config.stage === 'local' ? '' : `https://lambda.${config.region}.amazonaws.com`);
const functionName = () => process.env.CLEANUP_FUNCTION_NAME || `aperture-${config.stage}-cleanupWorker`;

/**
 * Asks for the cleanup of a deleted record's children, without waiting for it. True when
 * the invocation was accepted. A refusal is logged, not thrown: the deletion it follows
 * has already happened, and its job item stays to be retried (see the docs).
 */
export async function triggerCleanup(kind: CleanupKind, id: string): Promise<boolean> {
  const base = endpoint();
  if (!base) return false;
  try {
    const { status, text } = await signedPost({
      service: 'lambda',
      region: config.region,
      sdk: dynamo.config,
      url: new URL(`/2015-03-31/functions/${encodeURIComponent(functionName())}/invocations`, base),
      headers: { 'content-type': 'application/json', 'x-amz-invocation-type': 'Event' },
      body: JSON.stringify({ kind, id }),
      timeoutMs: 3000,
    });
    if (status === 202) return true;
    logger.error('cleanup_trigger_refused', { kind, id, status, body: text.slice(0, 500) });
  } catch (err) {
    // A failure to sign (no credentials) is thrown, as before the request was sent.
    if (!(err instanceof SendFailed)) throw err;
    logger.error('cleanup_trigger_failed', { kind, id, error: err.message });
  }
  return false;
}
