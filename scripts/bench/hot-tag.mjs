// Hashtags (docs/PERFORMANCE.md, "A hashtag taking 1,000 new posts a second"):
// - hotTag: 500 distinct authors post to one tag, 50 at a time, through the create function's
//   own bundle. Reported: errors, whether the tag's entries come to exactly 500 over its shards,
//   and the throughput.
// - tagPage: GET /tags/{tag}/posts (limit 20) on a tag of 10 posts and on one of 2,000 (items from
//   the service's builders): DynamoDB requests, which must not differ, and read units beside the
//   floor (authentication's 2 items, the 8 shard Queries at 1 RCU, 1 per post shown).
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { loaderClient, writeAll } from './loader.mjs';
import { apiEvent, invoke, lambdaContext, resetRecords, summarize, takeRecords } from './measure.mjs';
import { PASSWORD } from './dataset.mjs';

export const HOT_TAG_POSTS = 500;
export const HOT_TAG_CONCURRENCY = 50;
const IMAGE = JSON.stringify(['https://images.bench.test/tag.jpg']);
const round = (n, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

async function users(lib, n, passwordHash) {
  const now = new Date().toISOString();
  return Array.from({ length: n }, () => {
    const id = lib.newId();
    const session = lib.newSession({ id }, 'benchmark').item;
    return { id, session, item: lib.newUserItem(id, { name: 'Tag Bench', username: `tb_${id.toLowerCase()}`, email: `${id.toLowerCase()}@bench.test`, passwordHash }, now) };
  });
}

async function entriesOf(client, table, lib, tag) {
  let n = 0;
  for (let shard = 0; shard < lib.keys.TAG_SHARDS; shard++) {
    let start;
    do {
      const res = await client.send(new QueryCommand({
        TableName: table, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': lib.keys.tagShard(tag, shard) },
        Select: 'COUNT', ConsistentRead: true, ExclusiveStartKey: start,
      }));
      n += res.Count ?? 0;
      start = res.LastEvaluatedKey;
    } while (start);
  }
  return n;
}

export async function benchHotTag({ endpoint, table, lib, handler, posts = HOT_TAG_POSTS, concurrency = HOT_TAG_CONCURRENCY, say }) {
  const client = loaderClient(endpoint);
  const authors = await users(lib, posts, await lib.hashPassword(PASSWORD));
  await writeAll(client, table, (function* () { for (const a of authors) { yield a.item; yield a.session; } })(), 16);
  const tokens = await Promise.all(authors.map((a) => lib.signToken({ userId: a.id, sessionId: a.session.id, epoch: 0 })));
  const tag = `hot${lib.newId().toLowerCase()}`;
  resetRecords();
  let next = 0;
  let errors = 0;
  const started = performance.now();
  const worker = async () => {
    for (let i = next++; i < posts; i = next++) {
      const res = await handler(apiEvent('POST /posts/create', { token: tokens[i], body: { image: IMAGE, caption: `post ${i} #${tag}` } }), lambdaContext());
      if (res?.statusCode !== 201) {
        errors++;
        if (errors <= 3) say(`hot tag: post ${i} answered ${res?.statusCode}: ${String(res?.body).slice(0, 200)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const ms = performance.now() - started;
  takeRecords();
  const entries = await entriesOf(client, table, lib, tag);
  client.destroy();
  const result = { posts, concurrency, errors, exact: entries === posts, entries, postsPerSecond: round(posts / (ms / 1000)), seconds: round(ms / 1000, 2) };
  say(`hot tag: ${JSON.stringify(result)}`);
  return result;
}

export async function benchTagPage({ endpoint, table, lib, handler, sizes = { small: 10, large: 2000 }, say }) {
  const client = loaderClient(endpoint);
  const [author, viewer] = await users(lib, 2, await lib.hashPassword(PASSWORD));
  await writeAll(client, table, [author.item, author.session, viewer.item, viewer.session], 4);
  const token = await lib.signToken({ userId: viewer.id, sessionId: viewer.session.id, epoch: 0 });
  const out = {};
  for (const [name, n] of Object.entries(sizes)) {
    const tag = `${name}${lib.newId().toLowerCase()}`;
    await writeAll(client, table, (function* () {
      for (let i = 0; i < n; i++) {
        const id = lib.newId();
        yield lib.postItem(id, author.id, { image: IMAGE, image_public_id: '', caption: `#${tag}`, hashtags: [tag] });
        yield lib.tagEntryItem(tag, id, author.id, true);
      }
    })(), 16);
    await invoke(handler, 'GET /tags/{tag}/posts', { params: { tag }, query: { limit: '20' }, token });
    const call = await invoke(handler, 'GET /tags/{tag}/posts', { params: { tag }, query: { limit: '20' }, token });
    const s = summarize(call.records);
    const shown = JSON.parse(call.body).posts?.length ?? 0;
    // The floor: the caller's user and session items (2), the shard Queries (strongly consistent: 1 each), 1 per post shown.
    out[name] = { posts: n, shown, dbCalls: s.dbCalls, rcu: round(s.rcu, 2), floorRcu: 2 + lib.keys.TAG_SHARDS + shown };
  }
  client.destroy();
  say(`tag page: ${JSON.stringify(out)}`);
  return out;
}

export function hotTagTable(h, p) {
  return [
    '| hot tag | posts | in flight | errors | exact (entries) | posts/s | s |',
    '|---|---|---|---|---|---|---|',
    `| POST /posts/create | ${h.posts} | ${h.concurrency} | ${h.errors} | ${h.exact ? 'yes' : 'NO'} (${h.entries}) | ${h.postsPerSecond} | ${h.seconds} |`,
    '',
    '| tag page (limit 20) | posts of the tag | DynamoDB requests | RCU | floor RCU |',
    '|---|---|---|---|---|',
    ...Object.entries(p).map(([k, v]) => `| GET /tags/{tag}/posts, ${k} | ${v.posts} | ${v.dbCalls} | ${v.rcu} | ${v.floorRcu} |`),
  ].join('\n');
}
