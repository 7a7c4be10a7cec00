// Writes a data set (scripts/bench/dataset.mjs) into the table with BatchWriteItem, many
// batches in flight. Every item comes from the builder the service's own writes use
// (through `lib`, the bundle of scripts/bench/lib-entry.ts); only the counters are set
// here, computed from the same model as the edges, so they match exactly.
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
    // The item registration writes, with the counters of the data set's graph.
    // Its newest follower and following ids as the stream keeps them (lib/graph/recent.ts): the
    // graph is written here without the stream, so they are computed from the same model.
    const newest = (pairs, n) => pairs.sort((x, y) => (x.at < y.at ? 1 : x.at > y.at ? -1 : x.id < y.id ? 1 : -1)).slice(0, n).map((p) => p.id);
    yield {
      ...lib.newUserItem(u.id, { name: u.name, username: u.username, email: u.email, passwordHash }, u.createdAt),
      postsCount: ds.scale.postsPerUser, followersCount: ds.followersOf(u.i).length, followingCount: ds.followingOf(u.i).length, blockedCount: 1,
      recentFollowers: newest(ds.followersOf(u.i).map((f) => ({ id: userId(f), at: ds.edgeTime(f, u.i) })), lib.RECENT_IDS.followers),
      recentFollowing: newest(ds.followingOf(u.i).map((b) => ({ id: userId(b), at: ds.edgeTime(u.i, b) })), lib.RECENT_IDS.following),
      recentV: 0,
    };
    // The session its tokens belong to (every authenticated request checks it), as a login writes it.
    const session = lib.newSession({ id: u.id }, 'benchmark');
    u.sessionId = session.item.id;
    yield session.item;
    yield lib.claimItem(keys.username(u.username), u.id, passwordHash);
    yield lib.claimItem(keys.email(u.email), u.id, passwordHash);
    for (const t of searchTerms(u)) yield lib.searchItem(t, u.id);
    for (const b of ds.followingOf(u.i)) yield lib.followEdge(u.id, userId(b), ds.edgeTime(u.i, b));
    const blocked = (u.i + ds.blockOffset) % ds.N;
    yield lib.blockEdge(u.id, userId(blocked), ds.edgeTime(u.i, blocked));
    yield lib.blockMirror(u.id, userId(blocked), ds.edgeTime(u.i, blocked));
    for (const p of ds.bookmarksOf(u.i)) {
      const post = posts[p];
      yield lib.bookmarkItem(u.id, post.id, new Date(Date.parse(post.createdAt) + 5000).toISOString());
    }
    // One trace per user, with a few records of the user's own.
    const trace = { traceId: ds.traceOf(u.i), scenarioId: 'bench', stepId: '', simTimestamp: Date.parse(u.createdAt) };
    for (let k = 0; k < ds.scale.logsPerTrace; k++) {
      yield logItem({ ...trace, stepId: `step-${k}`, simTimestamp: trace.simTimestamp + k }, {
        type: 'BENCH_STEP', description: `Benchmark step ${k}.`, actorId: u.id, payload: { k },
      }).op.Put.Item;
    }
    // The first users' flooded trace: the same records of their own, and the next user's
    // refused requests under the same trace id, as lib/http/errors.ts records them.
    if (u.i < ds.scale.floodedTraces) {
      const flooded = { ...trace, traceId: ds.floodedTraceOf(u.i) };
      for (let k = 0; k < ds.scale.logsPerTrace; k++) {
        yield logItem({ ...flooded, stepId: `step-${k}`, simTimestamp: flooded.simTimestamp + k }, {
          type: 'BENCH_STEP', description: `Benchmark step ${k}.`, actorId: u.id, payload: { k },
        }).op.Put.Item;
      }
      const other = userId((u.i + 1) % ds.N);
      for (let k = 0; k < ds.scale.floodPerTrace; k++) {
        yield logItem({ ...flooded, stepId: `flood-${k}`, simTimestamp: flooded.simTimestamp + k }, {
          level: 'WARN', type: 'REQUEST_REFUSED', description: 'POST /users/profile/edit was answered 400 VALIDATION_ERROR: The request is not valid.', actorId: other,
          payload: { route: 'POST /users/profile/edit', params: {}, body: `{"bio":"${'x'.repeat(4088)}`, truncated: true, error: { status: 400, code: 'VALIDATION_ERROR' } },
        }).op.Put.Item;
      }
    }
  }

  const shardCounts = new Array(FEED_SHARDS).fill(0);
  const unread = new Array(users.length).fill(0);
  for (const post of posts) {
    shardCounts[shardOf(post.id, FEED_SHARDS)]++;
    const top = post.comments;
    const all = top.length + top.reduce((n, c) => n + c.replies.length, 0);
    yield {
      ...lib.postItem(post.id, userId(post.author), { image: IMAGE, image_public_id: '', caption: `Post ${post.index} of the benchmark` }),
      likesCount: post.likers.length, commentsCount: all,
      ...(top.length ? { lastCommentAt: top[top.length - 1].createdAt } : {}),
    };
    // The home feed entries the post's creation and its fan-out write: the author's and every follower's.
    yield lib.homeEntry(userId(post.author), post.id, userId(post.author));
    for (const f of ds.followersOf(post.author)) yield lib.homeEntry(userId(f), post.id, userId(post.author));
    const likedAt = (k) => new Date(Date.parse(post.createdAt) + 1000 + k).toISOString();
    // Its newest likers as the stream keeps them beside the post (lib/posts/recent-likers.ts), at the post's likesV (0).
    const newestLikes = post.likers.map((l, k) => `${likedAt(k)}#${userId(l)}`).sort().reverse().slice(0, 10);
    yield lib.likersItem(lib.postTarget(post.id), newestLikes, { likesV: 0, likesCount: post.likers.length }, 'bench');
    for (const [k, l] of post.likers.entries()) {
      const at = likedAt(k);
      yield lib.postLikeItem(post.id, userId(l), at, userId(post.author));
      // The notification the like's stream record leaves its author (lib/notifications).
      if (l !== post.author) {
        yield lib.notificationItem({ kind: 'POST_LIKE', recipientId: userId(post.author), actorId: userId(l), cause: `POST_LIKE#${post.id}#${userId(l)}`, postId: post.id }, at);
        unread[post.author]++;
      }
    }
  }
  // Every notification unread: the count the stream's writes leave (lib/notifications/store.ts).
  for (const u of users) yield { ...keys.notificationState(u.id), unread: unread[u.i] };
  // The global post counter's shards, as post creation's `ADD count 1` leaves them.
  for (let s = 0; s < FEED_SHARDS; s++) yield { ...keys.postCounterShard(s), count: shardCounts[s] };

  const authorOf = new Map(comments.map((c) => [c.id, userId(c.author)]));
  for (const c of comments) {
    const post = posts[c.post];
    const top = c.parent === null;
    yield {
      ...lib.commentItem(c.id, {
        text: `Comment ${c.id} of the benchmark`, author: userId(c.author), post: post.id, parentComment: c.parent, replyTo: c.parent,
        createdAt: c.createdAt, postAuthor: userId(post.author), ...(top ? {} : { parentAuthor: authorOf.get(c.parent) }),
        GSI1PK: top ? keys.commentsOf(post.id) : keys.repliesOf(c.parent),
      }),
      likesCount: c.likers.length, repliesCount: c.replies.length,
      ...(c.replies.length ? { lastReplyAt: c.replies[c.replies.length - 1].createdAt } : {}),
    };
    const likedAt = new Date(Date.parse(c.createdAt) + 500).toISOString();
    for (const l of c.likers) yield lib.commentLikeItem(c.id, userId(l), likedAt, userId(c.author), post.id);
    // Its newest likers as the stream keeps them beside the comment, at its likesV (0).
    const newestLikes = c.likers.map((l) => `${likedAt}#${userId(l)}`).sort().reverse().slice(0, 10);
    yield lib.likersItem(lib.commentTarget(c.id), newestLikes, { likesV: 0, likesCount: c.likers.length }, 'bench');
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
