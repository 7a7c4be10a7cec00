// Reading the write-sharded global feed (GSI2 FEED#0..7, sort key = post id, a ULID)
// newest first: the 8 shards are read in parallel and merged by id. A shard that still
// has unread items bounds what can be placed: every id at or above its last read id is
// known, so a merged item is final once it is at or above the highest such "frontier".
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import * as keys from '../keys';
import { FEED_SHARDS, INDEX } from '../keys';
import type { PostItem } from './model';

interface Shard {
  shard: number;
  items: PostItem[];
  next?: Record<string, unknown>;
  done: boolean;
}

async function readShard(s: Shard, limit?: number): Promise<void> {
  const res = await db.send(new QueryCommand({
    TableName: TABLE,
    IndexName: INDEX.GSI2,
    KeyConditionExpression: 'GSI2PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.feedShard(s.shard) },
    ScanIndexForward: false,
    ExclusiveStartKey: s.next,
    ...(limit ? { Limit: limit } : {}),
  }));
  s.items.push(...((res.Items ?? []) as PostItem[]));
  s.next = res.LastEvaluatedKey;
  s.done = !res.LastEvaluatedKey;
}

export interface FeedRead {
  /** Matching posts, newest first, all of them final (nothing unread can come before them). */
  posts: PostItem[];
  /** True when every shard was read to its end. */
  complete: boolean;
}

/**
 * A reader of the merged feed. `start(n)` issues the first parallel read (n items per
 * shard, enough to hold n matching posts when nothing is excluded); `take(n, keep)` then
 * yields the first n posts for which keep() holds, reading further 1 MB pages of the
 * shards that bound the merge only when excluded authors filled the first read.
 */
export class FeedReader {
  private shards: Shard[] = Array.from({ length: FEED_SHARDS }, (_, shard) => ({ shard, items: [], done: false }));
  private first?: Promise<void>;
  /** Sequential read rounds after the first, for the cost notes and tests. */
  extraRounds = 0;

  start(perShard: number): this {
    this.first = Promise.all(this.shards.map((s) => readShard(s, perShard))).then(() => undefined);
    // Started ahead of other reads: when one of those fails first, nobody awaits this one.
    this.first.catch(() => undefined);
    return this;
  }

  private settled(keep: (p: PostItem) => boolean): FeedRead {
    const open = this.shards.filter((s) => !s.done);
    // Every shard that may still hold unread posts has read all of its posts down to its last id.
    const frontier = open.reduce((max, s) => {
      const last = s.items[s.items.length - 1]?.id ?? '\uffff';
      return last > max ? last : max;
    }, '');
    const posts = this.shards
      .flatMap((s) => s.items)
      .filter((p) => p.id >= frontier && keep(p))
      .sort((a, b) => (a.id < b.id ? 1 : -1));
    return { posts, complete: open.length === 0 };
  }

  /** Every final post read so far for which keep() holds, newest first (after a take). */
  final(keep: (p: PostItem) => boolean): PostItem[] {
    return this.settled(keep).posts;
  }

  async take(n: number, keep: (p: PostItem) => boolean): Promise<PostItem[]> {
    if (!this.first) this.start(n);
    await this.first;
    for (;;) {
      const read = this.settled(keep);
      if (read.complete || read.posts.length >= n) return read.posts.slice(0, n);
      // Excluded authors filled the first read: every open shard reads its next 1 MB page.
      this.extraRounds++;
      await Promise.all(this.shards.filter((s) => !s.done).map((s) => readShard(s)));
    }
  }
}
