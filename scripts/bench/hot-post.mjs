// The hot post (docs/PERFORMANCE.md, "A hot post"): 500 distinct users like one post, 50
// at a time, through the like function's own bundle. Reported: errors (any answer but 200),
// whether the post's likesCount and its LIKE items both come to exactly 500, the
// throughput, how many DynamoDB requests and transaction attempts a like took on average
// (conflicts and counter retries included), and how many answers carried a count that is
// exact at its commit (every answer distinct). Items come from the service's builders.
import { QueryCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { loaderClient, writeAll } from './loader.mjs';
import { apiEvent, lambdaContext, resetRecords, takeRecords } from './measure.mjs';
import { PASSWORD } from './dataset.mjs';

export const HOT_LIKES = 500;
export const HOT_CONCURRENCY = 50;
const IMAGE = JSON.stringify(['https://images.bench.test/hot.jpg']);
const round = (n, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

export async function benchHotPost({ endpoint, table, lib, handler, likes = HOT_LIKES, concurrency = HOT_CONCURRENCY, say }) {
  const client = loaderClient(endpoint);
  const passwordHash = await lib.hashPassword(PASSWORD);
  const now = new Date().toISOString();
  const user = (id) => lib.newUserItem(id, { name: 'Hot Bench', username: `hb_${id.toLowerCase()}`, email: `${id.toLowerCase()}@bench.test`, passwordHash }, now);
  const author = lib.newId();
  const postId = lib.newId();
  const fans = Array.from({ length: likes }, () => ({ id: lib.newId(), session: undefined }));
  for (const f of fans) f.session = lib.newSession({ id: f.id }, 'benchmark').item;
  function* items() {
    yield { ...user(author), postsCount: 1 };
    yield lib.postItem(postId, author, { image: IMAGE, image_public_id: '', caption: 'the hot post' });
    for (const f of fans) { yield user(f.id); yield f.session; }
  }
  await writeAll(client, table, items(), 16);
  const tokens = await Promise.all(fans.map((f) => lib.signToken({ userId: f.id, sessionId: f.session.id, epoch: 0 })));
  const route = 'POST /posts/like/{post_id}';
  const params = { post_id: postId };

  // 50 workers take the next fan until all have liked: 50 likes in flight at every moment.
  // The records of all calls go to one sink, read once at the end (calls overlap).
  resetRecords();
  let next = 0;
  let errors = 0;
  const statuses = {};
  const counts = [];
  const started = performance.now();
  const worker = async () => {
    for (let i = next++; i < likes; i = next++) {
      const res = await handler(apiEvent(route, { params, token: tokens[i] }), lambdaContext());
      if (res?.statusCode !== 200) {
        errors++;
        statuses[res?.statusCode ?? 0] = (statuses[res?.statusCode ?? 0] ?? 0) + 1;
        if (errors <= 3) say(`hot post: like ${i} answered ${res?.statusCode}: ${String(res?.body).slice(0, 200)}`);
      } else counts.push(JSON.parse(res.body).likesCount);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const ms = performance.now() - started;
  const records = takeRecords();

  const post = (await client.send(new GetCommand({ TableName: table, Key: lib.keys.post(postId), ConsistentRead: true }))).Item;
  let likeItems = 0;
  let start;
  do {
    const res = await client.send(new QueryCommand({
      TableName: table, KeyConditionExpression: 'PK = :pk AND begins_with(SK, :like)',
      ExpressionAttributeValues: { ':pk': lib.keys.post(postId).PK, ':like': 'LIKE#' }, Select: 'COUNT', ConsistentRead: true, ExclusiveStartKey: start,
    }));
    likeItems += res.Count ?? 0;
    start = res.LastEvaluatedKey;
  } while (start);
  client.destroy();

  const txs = records.filter((r) => r.command === 'TransactWriteItemsCommand');
  const result = {
    likes,
    concurrency,
    errors,
    ...(errors ? { statuses } : {}),
    exact: post?.likesCount === likes && likeItems === likes,
    likesCount: post?.likesCount ?? 0,
    likeItems,
    likesPerSecond: round(likes / (ms / 1000)),
    seconds: round(ms / 1000, 2),
    requestsPerLike: round(records.length / likes, 2),
    transactionsPerLike: round(txs.length / likes, 2),
    conflicts: txs.filter((r) => r.error === 'TransactionCanceledException').length,
    // Answers whose count is the value right after their own commit: all distinct when exact.
    distinctAnswers: new Set(counts).size,
  };
  say(`hot post: ${JSON.stringify(result)}`);
  return result;
}

export function hotPostTable(h) {
  return [
    '| hot post | likes | in flight | errors | exact (likesCount, LIKE items) | likes/s | s | requests/like | transactions/like | cancelled transactions | distinct answers |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    `| POST /posts/like/{post_id} | ${h.likes} | ${h.concurrency} | ${h.errors} | ${h.exact ? 'yes' : 'NO'} (${h.likesCount}, ${h.likeItems}) | ${h.likesPerSecond} | ${h.seconds} | ${h.requestsPerLike} | ${h.transactionsPerLike} | ${h.conflicts} | ${h.distinctAnswers} |`,
  ].join('\n');
}
