// The live updates' rows (docs/PERFORMANCE.md, "Live updates"; contract section 20): what the
// stream consumer spends on a notification for a user with no connection and no subscription
// (at most one Query), and on a burst of notifications to a user with 5 connections (per
// notification one Query, the BatchGet of the actor and the privacy keys, and 5 sends). The
// consumer is the bundled function; the Management API a stand-in on loopback counting sends.
import { createServer } from 'node:http';
import { marshall } from '@aws-sdk/util-dynamodb';
import { loaderClient, writeAll } from './loader.mjs';
import { lambdaContext, median, resetRecords, summarize, takeRecords } from './measure.mjs';
import { PASSWORD } from './dataset.mjs';

const CONNECTIONS = 5;
const round = (n, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

export async function benchLive({ endpoint, table, lib, consumer, warmup, iterations, say }) {
  const client = loaderClient(endpoint);
  let sends = 0;
  const gateway = createServer((req, res) => { req.resume(); req.on('end', () => { sends++; res.writeHead(200).end(); }); });
  await new Promise((r) => gateway.listen(0, '127.0.0.1', r));
  const before = process.env.WEBSOCKET_API_ENDPOINT;
  process.env.WEBSOCKET_API_ENDPOINT = `http://127.0.0.1:${gateway.address().port}`;
  const passwordHash = await lib.hashPassword(PASSWORD);
  const now = new Date().toISOString();
  const user = (id) => ({ ...lib.newUserItem(id, { name: 'Live Bench', username: `lb_${id.toLowerCase()}`, email: `${id.toLowerCase()}@bench.test`, passwordHash }, now), recentV: 0 });
  const rows = [];
  for (const connections of [0, CONNECTIONS]) {
    const [me, actor] = [lib.newId(), lib.newId()];
    const notifications = Array.from({ length: warmup + iterations }, () => lib.notificationItem({ kind: 'FOLLOW', recipientId: me, actorId: actor, cause: `FOLLOW#${lib.newId()}` }));
    function* items() {
      yield user(me);
      yield user(actor);
      for (let i = 0; i < connections; i++) {
        const c = `bench-${me}-${i}`;
        yield { ...lib.keys.connection(me, c), type: 'CONNECTION', connectionId: c, userId: me, sessionId: 'BENCH', connectedAt: now, expiresAt: Math.floor(Date.now() / 1000) + 3600 };
      }
      yield* notifications;
    }
    await writeAll(client, table, items(), 16);
    const calls = [];
    for (const [k, n] of notifications.entries()) {
      const record = { eventName: 'INSERT', dynamodb: { Keys: marshall({ PK: n.PK, SK: n.SK }), NewImage: marshall(n), SequenceNumber: String(k + 1) } };
      const sent = sends;
      resetRecords();
      const t0 = performance.now();
      const out = await consumer({ Records: [record] }, lambdaContext());
      const ms = performance.now() - t0;
      const records = takeRecords();
      const s = summarize(records);
      if (out.batchItemFailures.length) throw new Error('live: the consumer failed the notification');
      if (k >= warmup) calls.push({ ms, ...s, sends: sends - sent, queries: records.filter((r) => r.command === 'QueryCommand').length });
    }
    const row = {
      connections, dbCalls: median(calls.map((c) => c.dbCalls)), queries: median(calls.map((c) => c.queries)),
      sends: median(calls.map((c) => c.sends)), rcu: round(median(calls.map((c) => c.rcu))), p50Ms: round(median(calls.map((c) => c.ms))),
    };
    // The contract's costs (section 20, issue 46): a floor each row must meet.
    if (connections === 0 && row.dbCalls > 1) throw new Error(`live: a user with nothing live cost ${row.dbCalls} requests, not at most 1 Query`);
    if (connections === CONNECTIONS && (row.queries !== 1 || row.sends !== CONNECTIONS)) throw new Error(`live: a burst to ${CONNECTIONS} connections cost ${row.queries} Queries and ${row.sends} sends`);
    rows.push(row);
    say(`live: a notification to a user with ${connections} connections: ${JSON.stringify(row)}`);
  }
  gateway.close();
  if (before === undefined) delete process.env.WEBSOCKET_API_ENDPOINT; else process.env.WEBSOCKET_API_ENDPOINT = before;
  client.destroy();
  return rows;
}

export function liveTable(rows) {
  return [
    '| a notification, through the stream consumer | connections | requests | Queries | sends | RCU | p50 ms |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| live \`notification\` | ${r.connections} | ${r.dbCalls} | ${r.queries} | ${r.sends} | ${r.rcu} | ${r.p50Ms} |`),
  ].join('\n');
}
