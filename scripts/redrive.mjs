#!/usr/bin/env node
// `npm run redrive`: delivers the stream records kept in `.stream-dead-letters.jsonl` (the
// local on-failure destination of `npm start`) to the running stack's streamConsumer again,
// one record per invocation, after the cause of their failure was fixed. Handled records
// leave the file; records that fail again stay in it with their new error
// (scripts/lib/redrive.mjs; docs/OPERATIONS.md, "Failed background work").
import { fileURLToPath } from 'node:url';
import { consumerUrl, lambdaInvoker } from './lib/local-stream.mjs';
import { localStack } from './lib/local-stack.mjs';
import { redriveDeadLetters } from './lib/redrive.mjs';

const file = fileURLToPath(new URL('../.stream-dead-letters.jsonl', import.meta.url));
const { baseUrl } = localStack();
// serverless-offline's Lambda endpoint is the API's port + 2 (scripts/start.mjs).
const api = new URL(baseUrl);
const lambdaEndpoint = `http://127.0.0.1:${Number(api.port || 80) + 2}`;
const { redriven, kept } = await redriveDeadLetters({
  file, invoke: lambdaInvoker(consumerUrl(lambdaEndpoint)), log: (line) => process.stdout.write(`${line}\n`),
});
process.stdout.write(`redriven: ${redriven}; still failing (kept in .stream-dead-letters.jsonl): ${kept}\n`);
process.exitCode = kept ? 1 : 0;
