// The change stream under `npm start` (and the HTTP tests): the poller of
// scripts/lib/stream-poller.mjs with the deployed mapping's settings, delivering to the
// consumer function through serverless-offline's Lambda endpoint, as the event source mapping
// delivers to the deployed function. Records that fail past their retries are appended to
// `deadLetterFile` (one JSON line each) and reported on stderr: the local on-failure queue.
import { appendFileSync } from 'node:fs';
import { consumerMapping, startStreamPoller } from './stream-poller.mjs';
import { ROOT } from './manifests.mjs';

/** Calls a function through serverless-offline's Lambda endpoint; a function error is thrown. */
export function lambdaInvoker(url) {
  return async (event) => {
    const res = await fetch(url, { method: 'POST', body: JSON.stringify(event), headers: { 'Content-Type': 'application/json' } });
    const text = await res.text();
    const payload = text ? JSON.parse(text) : undefined;
    if (!res.ok || res.headers.get('x-amz-function-error')) {
      throw new Error(payload?.errorMessage ?? payload?.Message ?? `the consumer answered ${res.status}`);
    }
    return payload;
  };
}

/** The local consumer's invocation URL (the function named by functions/events/functions.json). */
export const consumerUrl = (lambdaEndpoint, service = 'aperture', stage = 'local') =>
  `${lambdaEndpoint}/2015-03-31/functions/${service}-${stage}-${consumerMapping(ROOT).functionName}/invocations`;

export function startLocalStream({ endpoint, tableName, lambdaEndpoint, service = 'aperture', stage = 'local', deadLetterFile, checkpointFile, say = () => undefined }) {
  const { functionName, ...mapping } = consumerMapping(ROOT);
  const url = `${lambdaEndpoint}/2015-03-31/functions/${service}-${stage}-${functionName}/invocations`;
  return startStreamPoller({
    endpoint,
    tableName,
    ...mapping,
    checkpointFile,
    invoke: lambdaInvoker(url),
    onDeadLetter: (letter) => {
      if (deadLetterFile) appendFileSync(deadLetterFile, `${JSON.stringify({ at: new Date().toISOString(), ...letter })}\n`);
      say(`a stream record failed ${letter.attempts} times (${letter.error}); kept in ${deadLetterFile ?? 'no file'}`);
    },
    log: say,
  });
}
