// Redriving the local on-failure destination: the stream records that failed past their
// retries under `npm start` (`.stream-dead-letters.jsonl`, scripts/lib/local-stream.mjs) are
// delivered again, one record per invocation, once the cause is fixed. A record the consumer
// now handles leaves the file; one that fails again stays, with its new error, so running it
// twice never loses or repeats work (every reaction is idempotent: docs/OPERATIONS.md).
// The AWS counterpart is the runbook in docs/OPERATIONS.md, "Failed background work".
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

/** Parses the dead-letter file: one JSON object per line, blank lines ignored. */
export function readDeadLetters(file) {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((line, i) => {
    try {
      return JSON.parse(line);
    } catch {
      throw new Error(`${file}: line ${i + 1} is not JSON`);
    }
  });
}

/**
 * Delivers every letter's record again with `invoke({ Records: [record] })` (a throw or a
 * reported batch item failure is a failure), then rewrites the file with the letters that
 * failed again. Returns { redriven, kept }.
 */
export async function redriveDeadLetters({ file, invoke, log = () => undefined }) {
  const letters = readDeadLetters(file);
  const kept = [];
  let redriven = 0;
  for (const letter of letters) {
    let error;
    try {
      const result = await invoke({ Records: [letter.record] });
      if (result?.batchItemFailures?.length) error = 'reported as a batch item failure';
    } catch (err) {
      error = String(err?.message ?? err);
    }
    const seq = letter.record?.dynamodb?.SequenceNumber;
    if (error) {
      log(`record ${seq} failed again: ${error}`);
      kept.push({ ...letter, error, redrivenAt: new Date().toISOString() });
    } else {
      log(`record ${seq} handled`);
      redriven++;
    }
  }
  // Written whole, then renamed: an interrupted run leaves the old file, never half of it.
  if (letters.length) {
    writeFileSync(`${file}.tmp`, kept.map((l) => `${JSON.stringify(l)}\n`).join(''));
    renameSync(`${file}.tmp`, file);
  }
  return { redriven, kept: kept.length };
}

/**
 * The asynchronous invocations that failed every attempt under `npm start`
 * (`.async-dead-letters.jsonl`, scripts/lib/local-async.mjs: { functionName, event, ... } per
 * line) are run again with `invoke(functionName, event)`; the same rules: handled letters
 * leave the file, failing ones stay with their new error. Returns { redriven, kept }.
 */
export async function redriveAsyncDeadLetters({ file, invoke, log = () => undefined }) {
  const letters = readDeadLetters(file);
  const kept = [];
  let redriven = 0;
  for (const letter of letters) {
    try {
      await invoke(letter.functionName, letter.event);
      log(`${letter.functionName} handled its event`);
      redriven++;
    } catch (err) {
      const error = String(err?.message ?? err);
      log(`${letter.functionName} failed again: ${error}`);
      kept.push({ ...letter, error, redrivenAt: new Date().toISOString() });
    }
  }
  if (letters.length) {
    writeFileSync(`${file}.tmp`, kept.map((l) => `${JSON.stringify(l)}\n`).join(''));
    renameSync(`${file}.tmp`, file);
  }
  return { redriven, kept: kept.length };
}
