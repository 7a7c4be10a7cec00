// Starts the cleanup worker (functions/cleanup/worker.ts) asynchronously: a Lambda Invoke
// with InvocationType Event, sent as a SigV4-signed HTTP request. The signer and the
// credential chain are the ones the DynamoDB client already bundles, so this adds no SDK
// client to any bundle (docs/ARCHITECTURE.md, "Posts and explore").
//   AWS:        https://lambda.<region>.amazonaws.com (IAM: lambda:InvokeFunction on the worker)
//   npm start:  serverless-offline's Lambda endpoint (PORT+2), from CLEANUP_INVOKE_ENDPOINT
//   tests:      no endpoint on the local stage: nothing is sent; the tests run the worker.
import { SignatureV4 } from '@smithy/signature-v4';
import { Sha256 } from '../aws/sha256';
import { dynamo } from '../db/client';
import { config } from '../config';
import { logger } from '../log';
import type { CleanupKind } from './jobs';

const endpoint = process.env.CLEANUP_INVOKE_ENDPOINT
  || (config.stage === 'local' ? '' : `https://lambda.${config.region}.amazonaws.com`);
const functionName = process.env.CLEANUP_FUNCTION_NAME || `aperture-${config.stage}-cleanupWorker`;

const signer = new SignatureV4({
  service: 'lambda',
  region: config.region,
  credentials: () => dynamo.config.credentials(),
  sha256: Sha256,
});

/**
 * Asks for the cleanup of a deleted record's children, without waiting for it. True when
 * the invocation was accepted. A refusal is logged, not thrown: the deletion it follows
 * has already happened, and its job item stays to be retried (see the docs).
 */
export async function triggerCleanup(kind: CleanupKind, id: string): Promise<boolean> {
  if (!endpoint) return false;
  const url = new URL(`/2015-03-31/functions/${encodeURIComponent(functionName)}/invocations`, endpoint);
  const body = JSON.stringify({ kind, id });
  const signed = await signer.sign({
    method: 'POST',
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port ? Number(url.port) : undefined,
    path: url.pathname,
    query: {},
    headers: { host: url.host, 'content-type': 'application/json', 'x-amz-invocation-type': 'Event' },
    body,
  });
  try {
    const res = await fetch(url, { method: 'POST', headers: signed.headers, body, signal: AbortSignal.timeout(3000) });
    if (res.status === 202) return true;
    logger.error('cleanup_trigger_refused', { kind, id, status: res.status, body: (await res.text()).slice(0, 500) });
  } catch (err) {
    logger.error('cleanup_trigger_failed', { kind, id, error: err instanceof Error ? err.message : String(err) });
  }
  return false;
}
