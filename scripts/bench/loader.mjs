// Writes a data set (scripts/bench/dataset.mjs) into the table with BatchWriteItem, many
// batches in flight, using the item shapes of docs/ARCHITECTURE.md and the key builders
// of lib/keys.ts (through `lib`, the bundle of scripts/bench/lib-entry.ts). Counters are
// computed from the same model as the edges, so they match exactly.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { PASSWORD } from './dataset.mjs';

const IMAGE = JSON.stringify(['https://images.bench.test/photo.jpg']);

/** Every item of the data set, in no particular order. */
export function* itemsOf(ds, lib, passwordHash) {
  const { keys, shardOf, FEED_SHARDS, searchTerms, logItem } = lib;
  const { users, posts, comments } = ds;
  const userId = (i) => users[i].id;

  for (const u of users) {
    const followers = ds.followersOf(u.i).length;
    const following = ds.followingOf(u.i).length;
    yield {
      ...keys.user(u.id), type: 'USER', id: u.id, name: u.name, username: u.username, email: u.email, passwordHash,
      image: '', bio: '', gender: '', emailVerified: false, createdAt: u.createdAt, updatedAt: u.createdAt,
      postsCount: ds.scale.postsPerUser, followersCount: followers, followingCount: following, blockedCount: 1,
      GSI3PK: keys.popular(u.id).GSI3PK,
    };
    yield { ...keys.username(u.username), type: 'CLAIM', userId: u.id };
    yield { ...keys.email(u.email), type: 'CLAIM', userId: u.id };
    for (const t of searchTerms(u)) yield { ...keys.search(t.kind, t.term, u.id), type: 'SEARCH', kind: t.kind, term: t.term, userId: u.id };
    for (const b of ds.followingOf(u.i)) {
      const at = ds.edgeTime(u.i, b);
      yield { ...keys.follow(u.id, userId(b)), ...keys.followIndexes(u.id, userId(b), at), type: 'FOLLOW', followerId: u.id, followeeId: userId(b), createdAt: at };
    }
    const blocked = (u.i + ds.blockOffset) % ds.N;
    const at = ds.edgeTime(u.i, blocked);
    yield { ...keys.block(u.id, userId(blocked)), ...keys.blockIndexes(u.id, userId(blocked), at), type: 'BLOCK', blockerId: u.id, blockedId: userId(blocked), createdAt: at };
    for (const p of ds.bookmarksOf(u.i)) {
      const post = posts[p];
      const bAt = new Date(Date.parse(post.createdAt) + 5000).toISOString();
      yield { ...keys.bookmark(u.id, post.id), ...keys.bookmarkIndexes(u.id, post.id, bAt), type: 'BOOKMARK', userId: u.id, postId: post.id, createdAt: bAt };
    }
    // One trace per user, with a few records of the user's own.
    const trace = { traceId: ds.traceOf(u.i), scenarioId: 'bench', stepId: '', simTimestamp: Date.parse(u.createdAt) };
    for (let k = 0; k < ds.scale.logsPerTrace; k++) {
      yield logItem({ ...trace, stepId: `step-${k}`, simTimestamp: trace.simTimestamp + k }, {
        type: 'BENCH_STEP', description: `Benchmark step ${k}.`, actorId: u.id, payload: { k },
      }).op.Put.Item;
    }
  }

  const shardCounts = new Array(FEED_SHARDS).fill(0);
  for (const post of posts) {
    shardCounts[shardOf(post.id, FEED_SHARDS)]++;
    const top = post.comments;
    const all = top.length + top.reduce((n, c) => n + c.replies.length, 0);
    yield {
      ...keys.post(post.id), ...keys.postIndexes(post.id, userId(post.author)), type: 'POST', id: post.id,
      author: userId(post.author), image: IMAGE, image_public_id: '', caption: `Post ${post.index} of the benchmark`,
      createdAt: post.createdAt, updatedAt: post.createdAt, likesCount: post.likers.length, commentsCount: all,
      ...(top.length ? { lastCommentAt: top[top.length - 1].createdAt } : {}),
    };
    for (const [k, l] of post.likers.entries()) {
      const at = new Date(Date.parse(post.createdAt) + 1000 + k).toISOString();
      yield { ...keys.postLike(post.id, userId(l)), ...keys.likeIndexes(post.id, userId(l), at), type: 'LIKE', targetType: 'POST', postId: post.id, userId: userId(l), createdAt: at };
    }
  }
  for (let s = 0; s < FEED_SHARDS; s++) yield { ...keys.postCounterShard(s), type: 'COUNTER', count: shardCounts[s] };

  // The authors a comment carries, as lib/comments/create.ts writes them: its block checks read them.
  const authorOf = new Map(comments.map((c) => [c.id, userId(c.author)]));
  for (const c of comments) {
    const post = posts[c.post];
    const top = c.parent === null;
    yield {
      ...keys.comment(c.id), type: 'COMMENT', id: c.id, text: `Comment ${c.id} of the benchmark`, author: userId(c.author),
      postAuthor: userId(post.author), ...(top ? {} : { parentAuthor: authorOf.get(c.parent) }),
      post: post.id, parentComment: c.parent, replyTo: c.parent, likesCount: c.likers.length, repliesCount: c.replies.length,
      createdAt: c.createdAt, updatedAt: c.createdAt,
      ...(c.replies.length ? { lastReplyAt: c.replies[c.replies.length - 1].createdAt } : {}),
      GSI1PK: top ? keys.commentsOf(post.id) : keys.repliesOf(c.parent), GSI1SK: c.createdAt,
    };
    for (const l of c.likers) {
      const at = new Date(Date.parse(c.createdAt) + 500).toISOString();
      yield { ...keys.commentLike(c.id, userId(l)), ...keys.likeIndexes(c.id, userId(l), at), type: 'LIKE', targetType: 'COMMENT', commentId: c.id, userId: userId(l), createdAt: at };
    }
  }
}

/** A document client of its own (never the instrumented one of lib/db/client.ts). */
export function loaderClient(endpoint) {
  const raw = new DynamoDBClient({
    endpoint, region: process.env.AWS_REGION || 'us-east-1', maxAttempts: 10,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  return DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } });
}

/** BatchWriteItem in chunks of 25, `concurrency` batches in flight, UnprocessedItems retried. */
export async function writeAll(client, table, items, concurrency = 16) {
  const iterator = items[Symbol.iterator]();
  let written = 0;
  const next = () => {
    const chunk = [];
    for (let r = iterator.next(); !r.done; r = iterator.next()) {
      chunk.push({ PutRequest: { Item: r.value } });
      if (chunk.length === 25) break;
    }
    return chunk;
  };
  const worker = async () => {
    for (let chunk = next(); chunk.length; chunk = next()) {
      let pending = chunk;
      for (let attempt = 0; pending.length; attempt++) {
        if (attempt) await new Promise((r) => setTimeout(r, Math.min(1000, 20 * 2 ** attempt)));
        const res = await client.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
        pending = res.UnprocessedItems?.[table] ?? [];
      }
      written += chunk.length;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return written;
}

/** Loads a data set; returns the number of items and the milliseconds it took. */
export async function loadDataset(ds, lib, { endpoint, table, concurrency }) {
  const started = performance.now();
  const passwordHash = await lib.hashPassword(PASSWORD);
  const client = loaderClient(endpoint);
  const items = await writeAll(client, table, itemsOf(ds, lib, passwordHash), concurrency);
  client.destroy();
  return { items, ms: Math.round(performance.now() - started) };
}
