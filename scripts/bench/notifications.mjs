// The notifications' own rows (docs/PERFORMANCE.md, "Notifications"): a page of a user with
// 10 notifications and of one with 100,000 costs the same; and a page of a user with 10 when
// the stage has SUSPENDED suspended accounts, one of which notified the user (every suspended
// account is hidden from everyone, and its notifications stay while it is suspended: the
// unread count leaves its unread ones out, lib/notifications/read.ts). Items come from the
// service's builders. It runs last: the suspended accounts stay in the table's GONE partition.
import { loaderClient, writeAll } from './loader.mjs';
import { invoke, median, summarize } from './measure.mjs';
import { PASSWORD } from './dataset.mjs';

const SIZES = [10, 100_000];
const SUSPENDED = 1_000;
const ACTORS = 20;
const round = (n, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

export async function benchNotifications({ endpoint, table, lib, handler, warmup, iterations, say }) {
  const client = loaderClient(endpoint);
  const passwordHash = await lib.hashPassword(PASSWORD);
  const now = Date.now();
  const user = (id) => lib.newUserItem(id, { name: 'Notified Bench', username: `nb_${id.toLowerCase()}`, email: `${id.toLowerCase()}@bench.test`, passwordHash }, new Date(now).toISOString());
  const actors = Array.from({ length: ACTORS }, () => lib.newId());
  const rows = [];
  const cases = [...SIZES.map((size) => ({ size, suspended: 0 })), { size: 10, suspended: SUSPENDED }];
  for (const { size, suspended } of cases) {
    const me = lib.newId();
    // The suspended accounts (GONE items as a suspension writes them); the first of them notified the user.
    const gone = Array.from({ length: suspended }, () => lib.newId());
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
      for (const g of gone) yield { ...user(g), recentV: 0, suspendedAt: new Date(now).toISOString() };
      for (const g of gone) yield lib.goneItem(g, 'suspended', new Date(now).toISOString()).op.Put.Item;
      // The partition's version, as the suspensions would have moved it from nothing (one each):
      // the handler's copy of the partition from the rows before is then out of date, as in a stage.
      if (gone.length) yield { ...lib.keys.goneVersion(), type: 'GONE_VERSION', v: gone.length };
      if (gone.length) yield lib.notificationItem({ kind: 'FOLLOW', recipientId: me, actorId: gone[0], cause: `FOLLOW#${gone[0]}` }, new Date(now - 500).toISOString());
      yield { ...lib.keys.notificationState(me), unread: size + (gone.length ? 1 : 0) };
    }
    await writeAll(client, table, items(), 16);
    const token = await lib.signToken({ userId: me, sessionId: session.id, epoch: 0 });
    const calls = [];
    for (let k = 0; k < warmup + iterations; k++) {
      const out = await invoke(handler, 'GET /notifications', { token, query: { limit: '20' } });
      if (out.status !== 200) throw new Error(`notifications answered ${out.status}: ${out.body.slice(0, 200)}`);
      // The suspended account's notification is neither listed nor counted.
      const unreadCount = JSON.parse(out.body).unreadCount;
      if (unreadCount !== size) throw new Error(`notifications counted ${unreadCount} unread, not ${size}`);
      if (k >= warmup) calls.push({ ms: out.ms, ...summarize(out.records) });
    }
    rows.push({
      notifications: size, suspendedAccounts: suspended, dbCalls: median(calls.map((c) => c.dbCalls)), dbRoundTrips: median(calls.map((c) => c.dbRoundTrips)),
      rcu: round(median(calls.map((c) => c.rcu))), p50Ms: round(median(calls.map((c) => c.ms))),
    });
    say(`notifications page with ${size} stored, ${suspended} suspended accounts: ${JSON.stringify(rows[rows.length - 1])}`);
  }
  client.destroy();
  return rows;
}

export function notificationsTable(rows) {
  return [
    '| notifications page (limit 20) | stored notifications | suspended accounts | requests | round trips | RCU | p50 ms |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| GET /notifications | ${r.notifications.toLocaleString('en-US')} | ${(r.suspendedAccounts ?? 0).toLocaleString('en-US')} | ${r.dbCalls} | ${r.dbRoundTrips} | ${r.rcu} | ${r.p50Ms} |`),
  ].join('\n');
}
