#!/usr/bin/env node
// `npm run redrive`: runs again, against the running stack, what `npm start` kept on its local
// on-failure destinations once the cause of the failure is fixed:
// - the stream records of `.stream-dead-letters.jsonl`, delivered to streamConsumer one record
//   per invocation;
// - the asynchronous invocations of `.async-dead-letters.jsonl` (the cleanup worker's, media
//   processing's), each run once more with its event.
// Handled letters leave their file; letters that fail again stay in it with their new error
// (scripts/lib/redrive.mjs; docs/OPERATIONS.md, "Failed background work").
import { fileURLToPath } from 'node:url';
import { consumerUrl, lambdaInvoker } from './lib/local-stream.mjs';
import { invokeFunction } from './lib/local-async.mjs';
import { localStack } from './lib/local-stack.mjs';
import { redriveAsyncDeadLetters, redriveDeadLetters } from './lib/redrive.mjs';

const streamFile = fileURLToPath(new URL('../.stream-dead-letters.jsonl', import.meta.url));
const asyncFile = fileURLToPath(new URL('../.async-dead-letters.jsonl', import.meta.url));
const { baseUrl } = localStack();
// serverless-offline's Lambda endpoint is the API's port + 2 (scripts/start.mjs).
const api = new URL(baseUrl);
const lambdaEndpoint = `http://127.0.0.1:${Number(api.port || 80) + 2}`;
const log = (line) => process.stdout.write(`${line}\n`);
const stream = await redriveDeadLetters({ file: streamFile, invoke: lambdaInvoker(consumerUrl(lambdaEndpoint)), log });
process.stdout.write(`stream records redriven: ${stream.redriven}; still failing (kept in .stream-dead-letters.jsonl): ${stream.kept}\n`);
const invocations = await redriveAsyncDeadLetters({ file: asyncFile, invoke: (name, event) => invokeFunction(lambdaEndpoint, name, event), log });
process.stdout.write(`asynchronous invocations redriven: ${invocations.redriven}; still failing (kept in .async-dead-letters.jsonl): ${invocations.kept}\n`);
process.exitCode = stream.kept || invocations.kept ? 1 : 0;
