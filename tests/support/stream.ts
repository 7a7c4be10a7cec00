// The real change stream for integration tests: DynamoDB Local's stream of this test file's
// table, polled with the event source mapping's settings (functions/events/functions.json),
// delivering to the real consumer handler in this process. Use with tests/support/own-stream-table
// (a stream reader of the shared table would also see every other file's changes).
import { consumerMapping, startStreamPoller, type DeadLetter, type StreamPoller } from '../../scripts/lib/stream-poller.mjs';
import { ROOT } from '../../scripts/lib/manifests.mjs';
import { handler } from '../../functions/events/stream';
import { marshall } from '@aws-sdk/util-dynamodb';

export interface TestStream {
  poller: StreamPoller;
  deadLetters: DeadLetter[];
  /** Invocations the consumer received, for tests that count them. */
  invocations: number;
}

export function startTestStream(opts: { invoke?: typeof handler; maxRetries?: number; startingPosition?: 'TRIM_HORIZON' | 'LATEST' } = {}): TestStream {
  const mapping = consumerMapping(ROOT);
  const state: TestStream = { poller: undefined as unknown as StreamPoller, deadLetters: [], invocations: 0 };
  state.poller = startStreamPoller({
    endpoint: process.env.DYNAMODB_ENDPOINT!,
    tableName: process.env.TABLE_NAME!,
    ...mapping,
    ...(opts.maxRetries !== undefined ? { maxRetries: opts.maxRetries } : {}),
    // 150 ms: with several test files polling their streams at once, 50 ms kept DynamoDB Local busy
    // answering empty GetRecords and slowed every other request of the run.
    pollMs: 150,
    startingPosition: opts.startingPosition,
    invoke: async (event) => {
      state.invocations++;
      return (opts.invoke ?? handler)(event as never);
    },
    onDeadLetter: (letter) => { state.deadLetters.push(letter); },
    // The poller's own trouble (an iterator refused, a shard not ready) shows in the test output.
    log: (line) => process.stderr.write(`[stream] ${line}\n`),
  });
  return state;
}

/**
 * The consumer from the stream's end (a poller started at LATEST, for a test that stopped the
 * stream and does not want the changes of the pause replayed), resolved once every shard is being
 * read: every change written after it is delivered.
 */
export async function startTestStreamFromNow(opts: { invoke?: typeof handler } = {}): Promise<TestStream> {
  const stream = startTestStream({ ...opts, startingPosition: 'LATEST' });
  await stream.poller.ready();
  return stream;
}

/**
 * Polls `read` until `done` holds for its value, and answers that value; throws after
 * `timeoutMs`, naming the last value seen (never a fixed sleep). A wait is itself an
 * assertion: a test that only waits still fails when what it waits for never comes.
 */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`eventually: not done within ${timeoutMs} ms; last value seen: ${shown(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const shown = (value: unknown) => {
  try {
    return JSON.stringify(value)?.slice(0, 2_000) ?? String(value);
  } catch {
    return String(value);
  }
};

/** A change record of an item as the stream writes it (its key and its image), for delivering by hand; `byTtl`: as DynamoDB's TTL writes a removal. */
export function changeRecord(eventName: 'INSERT' | 'REMOVE', item: Record<string, unknown>, opts: { byTtl?: boolean } = {}) {
  return {
    eventName,
    ...(opts.byTtl ? { userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' } } : {}),
    dynamodb: { Keys: marshall({ PK: item.PK, SK: item.SK }), [eventName === 'INSERT' ? 'NewImage' : 'OldImage']: marshall(item), SequenceNumber: '1' },
  };
}
export type ChangeRecord = ReturnType<typeof changeRecord>;
