// The table's change stream, delivered locally the way Lambda's event source mapping
// delivers it in AWS (functions/events/functions.json): DynamoDB Local's own Streams API is
// polled shard by shard, records are filtered by the same filter patterns, handed over in
// batches of up to `batchSize`, and a failure is retried with the mapping's rules:
// `ReportBatchItemFailures` (the batch is delivered again from the first failed record),
// bisection of a batch whose invocation fails, at most `maxRetries` retries, then the
// record goes to the on-failure destination (`onDeadLetter`) and the shard moves on.
// Shards are read parents first; a closed shard is finished and its children taken up.
// With `checkpointFile`, the position of every shard is kept across restarts (npm start
// --persist), so a restart neither replays what was done nor skips what was not.
//
// npm start passes an `invoke` that calls the consumer through serverless-offline's Lambda
// endpoint; the tests pass one that calls the handler in-process. Either way the real
// handler gets real records of the real stream.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import { localClient } from './local-dynamodb.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Lambda's event filtering, for the patterns we use: nested objects whose leaves are lists of allowed values. */
export function matchesPattern(value, pattern) {
  if (Array.isArray(pattern)) return pattern.some((allowed) => allowed === value);
  if (!pattern || typeof pattern !== 'object') return false;
  if (!value || typeof value !== 'object') return false;
  return Object.entries(pattern).every(([k, p]) => matchesPattern(value[k], p));
}

export const passesFilters = (record, patterns) => !patterns?.length || patterns.some((p) => matchesPattern(record, p));

/** A record of the Streams API in the shape Lambda hands to a function. */
function toLambdaRecord(r, streamArn) {
  const d = r.dynamodb ?? {};
  return {
    eventID: r.eventID,
    eventName: r.eventName,
    eventVersion: r.eventVersion,
    eventSource: 'aws:dynamodb',
    awsRegion: r.awsRegion,
    eventSourceARN: streamArn,
    ...(r.userIdentity ? { userIdentity: { type: r.userIdentity.Type, principalId: r.userIdentity.PrincipalId } } : {}),
    dynamodb: {
      ApproximateCreationDateTime: d.ApproximateCreationDateTime instanceof Date
        ? Math.floor(d.ApproximateCreationDateTime.getTime() / 1000) : d.ApproximateCreationDateTime,
      Keys: d.Keys,
      ...(d.NewImage ? { NewImage: d.NewImage } : {}),
      ...(d.OldImage ? { OldImage: d.OldImage } : {}),
      SequenceNumber: d.SequenceNumber,
      SizeBytes: d.SizeBytes,
      StreamViewType: d.StreamViewType,
    },
  };
}

/** A GetRecords unanswered this long is dropped and asked again. */
export const GET_RECORDS_TIMEOUT_MS = 5_000;
/** A GetRecords or a consumer invocation slower than this is logged. */
const SLOW_MS = 5_000;

/**
 * Starts polling the table's stream. Returns { stop(), idle() }: idle() resolves once every
 * shard has been read to its current end with nothing left to deliver (for the benchmark).
 */
export function startStreamPoller({
  endpoint, tableName, invoke, batchSize = 100, maxRetries = 5, bisectOnError = true, filterPatterns = [], startingPosition = 'TRIM_HORIZON',
  onDeadLetter = () => undefined, checkpointFile, pollMs = 100, log = () => undefined,
}) {
  const dynamo = localClient(endpoint);
  const streams = new DynamoDBStreamsClient({
    endpoint, region: process.env.AWS_REGION || 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    // DynamoDB Local now and then leaves a GetRecords unanswered for 60 s (seen in full test
    // runs: "GetRecords took 60032 ms"), which held every change of that shard as long. A read
    // that waits this long is dropped (throwOnRequestTimeout: without it the SDK only warns)
    // and asked again from the checkpoint, at least once as always: the shard goes on seconds later.
    // The request timeout ends when the answer's headers arrive; an answer whose body then
    // stalls (seen in a CI run after the timeout was set: "GetRecords took 60018 ms (1
    // records)") is dropped by the socket's inactivity timeout, the same 5 s.
    requestHandler: { requestTimeout: GET_RECORDS_TIMEOUT_MS, throwOnRequestTimeout: true, socketTimeout: GET_RECORDS_TIMEOUT_MS },
  });
  let stopped = false;
  let streamArn;
  /** shardId -> { parent, iterator, last, done, start (where it begins without a checkpoint), positioned (read once) } */
  const shards = new Map();
  let saved = {};
  /** Whether a describe has run: startingPosition applies only to the shards it found. */
  let described = false;
  if (checkpointFile && existsSync(checkpointFile)) {
    try { saved = JSON.parse(readFileSync(checkpointFile, 'utf8')); } catch { saved = {}; }
  }
  const checkpoint = () => {
    if (!checkpointFile) return;
    const positions = Object.fromEntries([...shards].filter(([, s]) => s.last).map(([id, s]) => [id, s.last]));
    writeFileSync(checkpointFile, JSON.stringify({ streamArn, positions }));
  };

  async function describe() {
    const table = await dynamo.send(new DescribeTableCommand({ TableName: tableName }));
    const arn = table.Table?.LatestStreamArn;
    if (!arn) throw new Error(`table ${tableName} has no stream`);
    if (arn !== streamArn) {
      streamArn = arn;
      shards.clear();
      if (saved.streamArn !== arn) saved = { streamArn: arn, positions: {} };
    }
    let start;
    do {
      const res = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: start }));
      for (const s of res.StreamDescription?.Shards ?? []) {
        // A shard that appears later (a child of a shard being read, as shards roll over) is
        // read from its first record, as the event source mapping reads it: at LATEST its records
        // written before the poller looked would be skipped.
        if (!shards.has(s.ShardId)) {
          shards.set(s.ShardId, {
            parent: s.ParentShardId, iterator: undefined, last: saved.positions?.[s.ShardId], done: false,
            start: described ? 'TRIM_HORIZON' : startingPosition, positioned: false,
          });
        }
      }
      start = res.StreamDescription?.LastEvaluatedShardId;
    } while (start);
    described = true;
  }

  async function iteratorFor(shardId, s) {
    const res = await streams.send(new GetShardIteratorCommand({
      StreamArn: streamArn,
      ShardId: shardId,
      ...(s.last ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: s.last } : { ShardIteratorType: s.start }),
    }));
    return res.ShardIterator;
  }

  /** Calls the consumer with one batch; the index of the first record it did not finish, or -1. */
  async function attempt(batch) {
    const started = Date.now();
    const result = await invoke({ Records: batch.map((r) => toLambdaRecord(r, streamArn)) });
    if (Date.now() - started > SLOW_MS) log(`stream poller: a batch of ${batch.length} records took ${Date.now() - started} ms in the consumer`);
    const failed = result?.batchItemFailures ?? [];
    if (!failed.length) return -1;
    const ids = new Set(failed.map((f) => f.itemIdentifier));
    const at = batch.findIndex((r) => ids.has(r.dynamodb.SequenceNumber));
    return at < 0 ? 0 : at; // an identifier that names no record fails the whole batch, as in AWS
  }

  /** Delivers records in order; never throws: what keeps failing goes to the dead letters. */
  async function deliver(records, s) {
    let pending = records;
    let retries = 0;
    while (pending.length && !stopped) {
      let failedAt;
      let error;
      try {
        failedAt = await attempt(pending);
      } catch (err) {
        error = err;
        failedAt = 0;
        if (bisectOnError && pending.length > 1) {
          const half = Math.ceil(pending.length / 2);
          await deliver(pending.slice(0, half), s);
          await deliver(pending.slice(half), s);
          return;
        }
      }
      if (failedAt < 0) {
        s.last = pending[pending.length - 1].dynamodb.SequenceNumber;
        return;
      }
      if (failedAt > 0) {
        s.last = pending[failedAt - 1].dynamodb.SequenceNumber;
        pending = pending.slice(failedAt);
        retries = 0;
      }
      if (retries >= maxRetries) {
        const record = pending[0];
        log(`stream record ${record.dynamodb.SequenceNumber} failed ${retries + 1} times: sent to the dead letters`);
        await onDeadLetter({ record: toLambdaRecord(record, streamArn), error: error ? String(error.message ?? error) : 'reported as a batch item failure', attempts: retries + 1 });
        s.last = record.dynamodb.SequenceNumber;
        pending = pending.slice(1);
        retries = 0;
        continue;
      }
      retries++;
      await sleep(Math.min(2000, 50 * 2 ** retries));
    }
  }

  let idleWaiters = [];
  let readyWaiters = [];
  /** Every shard known is being read: each has had a GetRecords answered, or is finished. */
  const isReady = () => described && [...shards.values()].every((s) => s.positioned || s.done);
  let busy = true;
  async function pollShard(shardId, s) {
    if (s.done) return false;
    const parent = s.parent && shards.get(s.parent);
    if (parent && !parent.done) return false; // a child waits for its parent's records
    if (!s.iterator) {
      try {
        s.iterator = await iteratorFor(shardId, s);
      } catch (err) {
        log(`stream poller: shard ${shardId}: no iterator yet: ${err.name}: ${err.message}`);
        // Not an idle pass (idle() must not resolve before the shard is really being read).
        await sleep(pollMs);
        return true;
      }
    }
    let res;
    try {
      const asked = Date.now();
      res = await streams.send(new GetRecordsCommand({ ShardIterator: s.iterator, Limit: 1000 }));
      // What a slow local stream spends its time on shows in the log (DynamoDB Local under load).
      if (Date.now() - asked > SLOW_MS) log(`stream poller: shard ${shardId}: GetRecords took ${Date.now() - asked} ms (${res.Records?.length ?? 0} records)`);
    } catch (err) {
      // An expired or refused iterator is taken again from the checkpoint on the next pass; a
      // shard is finished only when the stream says so (no next iterator), never on an error.
      // A shard started at LATEST that has no checkpoint yet has no position to take again: a
      // new LATEST iterator would skip what was written since this one was taken. Its iterator
      // is asked again as it is (an iterator may be read more than once until it expires);
      // one the stream refuses sends the shard back to its first record: replayed, never skipped.
      if (s.last || s.start !== 'LATEST') s.iterator = undefined;
      else if (['ExpiredIteratorException', 'TrimmedDataAccessException'].includes(err.name)) {
        s.start = 'TRIM_HORIZON';
        s.iterator = undefined;
      }
      s.failures = (s.failures ?? 0) + 1;
      // DynamoDB Local answers this now and then for a shard that has just started; only a
      // checkpoint the stream keeps refusing (trimmed after 24 hours) is given up, for the oldest record.
      if (err.name === 'TrimmedDataAccessException' && s.failures >= 5 && s.last) {
        log(`stream poller: shard ${shardId}: checkpoint ${s.last} no longer in the stream; reading from its oldest record`);
        s.last = undefined;
      }
      log(`stream poller: shard ${shardId}: ${err.name}: ${err.message}`);
      await sleep(pollMs);
      return true;
    }
    s.failures = 0;
    s.positioned = true;
    const records = res.Records ?? [];
    const wanted = records.filter((r) => passesFilters(r, filterPatterns));
    for (let i = 0; i < wanted.length && !stopped; i += batchSize) await deliver(wanted.slice(i, i + batchSize), s);
    // Filtered-out records are passed over, as the event source mapping discards them.
    if (records.length && !stopped) s.last = records[records.length - 1].dynamodb.SequenceNumber;
    if (records.length) checkpoint();
    if (res.NextShardIterator) s.iterator = res.NextShardIterator;
    else s.done = true;
    return records.length > 0 || s.done;
  }

  const loop = (async () => {
    let lastDescribe = 0;
    while (!stopped) {
      try {
        if (Date.now() - lastDescribe > 2000 || !streamArn) {
          await describe();
          lastDescribe = Date.now();
        }
        let worked = false;
        for (const [id, s] of shards) if (!stopped && (await pollShard(id, s))) worked = true;
        busy = worked;
        if (readyWaiters.length && isReady()) {
          for (const resolve of readyWaiters) resolve();
          readyWaiters = [];
        }
        if (!worked) {
          // A waiter is satisfied by an idle pass that began after it asked: the second one it sees.
          for (const w of idleWaiters) w.passes++;
          for (const w of idleWaiters.filter((x) => x.passes >= 2)) w.resolve();
          idleWaiters = idleWaiters.filter((x) => x.passes < 2);
          await sleep(pollMs);
        }
      } catch (err) {
        if (stopped) break;
        log(`stream poller: ${err.message ?? err}`);
        await sleep(1000);
      }
    }
  })();

  return {
    /** Resolves after a pass that found nothing to deliver, started after this call. */
    idle: () => new Promise((resolve) => { idleWaiters.push({ resolve, passes: 0 }); }),
    /**
     * Resolves once every shard has been positioned (its iterator taken and read once): from
     * then on, a poller started at LATEST delivers every change written. A change written
     * before may be skipped, as it would be by a LATEST event source mapping just created.
     */
    ready: () => new Promise((resolve) => { if (isReady()) resolve(); else readyWaiters.push(resolve); }),
    get busy() { return busy; },
    async stop() {
      stopped = true;
      await loop;
      checkpoint();
      streams.destroy();
      dynamo.destroy();
    },
  };
}

/**
 * The event source mapping of the stream consumer as functions/events/functions.json declares
 * it for AWS, as poller options: one definition for the deployed stage, npm start and the tests.
 */
export function consumerMapping(root) {
  const manifest = JSON.parse(readFileSync(`${root}functions/events/functions.json`, 'utf8'));
  const [name, fn] = Object.entries(manifest).find(([, f]) => f.events?.some((e) => e.stream));
  const stream = fn.events.find((e) => e.stream).stream;
  return {
    functionName: name,
    batchSize: stream.batchSize ?? 100,
    maxRetries: stream.maximumRetryAttempts ?? 5,
    bisectOnError: stream.bisectBatchOnFunctionError ?? false,
    filterPatterns: stream.filterPatterns ?? [],
  };
}
