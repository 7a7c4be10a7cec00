// Asynchronous invocations under `npm start`, as Lambda runs them in AWS: accepted at once
// (202), run, retried when the function fails, and kept on a dead-letter file when every
// attempt failed (the deployed stage's on-failure queue).
//
// Why not serverless-offline's own `InvocationType: Event`: it starts the function without
// awaiting it, so a function that throws there is an unhandled rejection, which ends
// serverless-offline itself (checked: a media upload that failed processing stopped the whole
// local stack). Here each attempt is a RequestResponse invocation, whose failure
// serverless-offline reports (X-Amz-Function-Error) instead of dying of it.
//
// Two ways in: `dispatch(functionName, event)` (the storage's upload events, from
// scripts/start.mjs), and an HTTP endpoint speaking Lambda's Invoke API for InvocationType
// Event (CLEANUP_INVOKE_ENDPOINT: the cleanup trigger signs and sends its request exactly as
// it does to Lambda in AWS).
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';

const INVOKE_PATH = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;

/** One RequestResponse invocation through serverless-offline's Lambda endpoint; throws the function's error. */
export async function invokeFunction(lambdaEndpoint, functionName, event) {
  const res = await fetch(`${lambdaEndpoint}/2015-03-31/functions/${encodeURIComponent(functionName)}/invocations`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Amz-Invocation-Type': 'RequestResponse' },
    body: JSON.stringify(event),
  });
  const text = await res.text();
  if (!res.ok || res.headers.get('x-amz-function-error')) {
    let message = `answered ${res.status}`;
    try { message = JSON.parse(text).errorMessage ?? message; } catch { /* not JSON */ }
    throw new Error(message);
  }
}

/**
 * @param {object} o
 * @param {string} o.lambdaEndpoint serverless-offline's Lambda endpoint (PORT+2)
 * @param {(name: string) => number} [o.retriesOf] retries after the first attempt, per function (AWS's default: 2)
 * @param {number[]} [o.backoffMs] wait before each retry (AWS waits about 1 and 2 minutes; locally seconds)
 * @param {string} [o.deadLetterFile] one JSON line per invocation whose attempts all failed
 * @param {(msg: string) => void} [o.say]
 */
export function startLocalAsync({ lambdaEndpoint, retriesOf = () => 2, backoffMs = [1000, 2000], deadLetterFile, say = () => undefined }) {
  const running = new Set();
  const invokeOnce = (functionName, event) => invokeFunction(lambdaEndpoint, functionName, event);

  async function run(functionName, event) {
    const retries = retriesOf(functionName);
    let lastError;
    for (let attempt = 1; attempt <= retries + 1; attempt++) {
      if (attempt > 1) await new Promise((r) => setTimeout(r, backoffMs[Math.min(attempt - 2, backoffMs.length - 1)]));
      try {
        await invokeOnce(functionName, event);
        return;
      } catch (err) {
        lastError = err;
      }
    }
    const letter = { at: new Date().toISOString(), functionName, attempts: retries + 1, error: lastError?.message ?? String(lastError), event };
    if (deadLetterFile) appendFileSync(deadLetterFile, `${JSON.stringify(letter)}\n`);
    say(`${functionName} failed ${retries + 1} times (${letter.error}); the event is kept in ${deadLetterFile ?? 'no file'}`);
  }

  /** Runs the function with the event later, as Lambda runs an Event invocation. */
  function dispatch(functionName, event) {
    const p = run(functionName, event).finally(() => running.delete(p));
    running.add(p);
  }

  const server = createServer((req, res) => {
    const m = INVOKE_PATH.exec(new URL(req.url, 'http://local').pathname);
    if (req.method !== 'POST' || !m) {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ Message: 'not an Invoke request' }));
      return;
    }
    if ((req.headers['x-amz-invocation-type'] ?? 'RequestResponse') !== 'Event') {
      res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ Message: 'only InvocationType Event is taken here' }));
      return;
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let event;
      try {
        event = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
      } catch {
        res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ Message: 'the payload is not JSON' }));
        return;
      }
      dispatch(decodeURIComponent(m[1]), event);
      res.writeHead(202).end();
    });
  });

  const listening = new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`));
  });

  return {
    dispatch,
    /** The Invoke endpoint's base URL, once listening. */
    endpoint: listening,
    /** Resolves when every accepted invocation has finished (or been dead-lettered). */
    async drain() {
      while (running.size) await Promise.allSettled([...running]);
    },
    async stop() {
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
