// The notifications' own rows (docs/PERFORMANCE.md, "Notifications"): a page of a user with
// 10 notifications and of one with 100,000 costs the same. Items come from the service's builder.
import { loaderClient, writeAll } from './loader.mjs';
import { invoke, median, summarize } from './measure.mjs';
import { PASSWORD } from './dataset.mjs';

const SIZES = [10, 100_000];
const ACTORS = 20;
const round = (n, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

export async function benchNotifications({ endpoint, table, lib, handler, warmup, iterations, say }) {
  const client = loaderClient(endpoint);
  const passwordHash = await lib.hashPassword(PASSWORD);
  const now = Date.now();
  const user = (id) => lib.newUserItem(id, { name: 'Notified Bench', username: `nb_${id.toLowerCase()}`, email: `${id.toLowerCase()}@bench.test`, passwordHash }, new Date(now).toISOString());
  const actors = Array.from({ length: ACTORS }, () => lib.newId());
  const rows = [];
  for (const size of SIZES) {
    const me = lib.newId();
    const session = lib.newSession({ id: me }, 'benchmark').item;
    function* items() {
      yield user(me);
      yield session;
      // As registration writes them (lib/users/write.ts): no follow edges, recent ids current (recentV 0).
      for (const a of actors) yield { ...user(a), recentV: 0 };
      for (let i = 0; i < size; i++) {
        const actorId = actors[i % ACTORS];
        const postId = lib.newId();
        yield lib.notificationItem({ kind: 'POST_LIKE', recipientId: me, actorId, cause: `POST_LIKE#${postId}#${actorId}`, postId }, new Date(now - (size - i) * 1000).toISOString());
      }
      yield { ...lib.keys.notificationState(me), unread: size };
    }
    await writeAll(client, table, items(), 16);
    const token = await lib.signToken({ userId: me, sessionId: session.id, epoch: 0 });
    const calls = [];
    for (let k = 0; k < warmup + iterations; k++) {
      const out = await invoke(handler, 'GET /notifications', { token, query: { limit: '20' } });
      if (out.status !== 200) throw new Error(`notifications answered ${out.status}: ${out.body.slice(0, 200)}`);
      if (k >= warmup) calls.push({ ms: out.ms, ...summarize(out.records) });
    }
    rows.push({
      notifications: size, dbCalls: median(calls.map((c) => c.dbCalls)), dbRoundTrips: median(calls.map((c) => c.dbRoundTrips)),
      rcu: round(median(calls.map((c) => c.rcu))), p50Ms: round(median(calls.map((c) => c.ms))),
    });
    say(`notifications page with ${size} stored: ${JSON.stringify(rows[rows.length - 1])}`);
  }
  client.destroy();
  return rows;
}

export function notificationsTable(rows) {
  return [
    '| notifications page (limit 20) | stored notifications | requests | round trips | RCU | p50 ms |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => `| GET /notifications | ${r.notifications.toLocaleString('en-US')} | ${r.dbCalls} | ${r.dbRoundTrips} | ${r.rcu} | ${r.p50Ms} |`),
  ].join('\n');
}
