// A tag's page (GET /tags/{tag}/posts, contract section 19): the posts carrying the tag that
// the caller may see, newest first. The tag's entries lie in keys.TAG_SHARDS partitions
// (lib/tags/entries.ts); a page Queries every shard at once, each for at most as many entries
// as the page still needs, and merges them by post id (a ULID: the merge is newest first). So a
// page costs the same requests and capacity for a tag of 10 posts and of 10 million
// (docs/ARCHITECTURE.md, "Hashtags"). The cursor is the id of the last post a page covered:
// every shard goes on below it.
//
// Who the caller may see: its own posts, and others' except those of an account on either
// side of a block with the caller, suspended or deleted (the caller's hidden set), private and
// not followed by the caller, or muted by the caller. The page's distinct authors' user items
// and the caller's follow and mute edges to them are one BatchGet: the cost does not grow with
// how many accounts the caller muted or follows.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import { batchGet, itemKey } from '../db/batch';
import * as keys from '../keys';
import { TAG_SHARDS } from '../keys';
import type { Viewer } from '../graph/viewer';
import type { TagEntryItem } from '../tags/entries';
import type { PostItem } from './model';

/** Rounds of shard reads a page makes at most when entries it read were hidden from the caller. */
export const TAG_PAGE_ROUNDS = 3;

type Entry = Pick<TagEntryItem, 'post' | 'author'>;

/** Each shard's newest entries below `before`, at most `limit` each; and whether every shard was read to its end. */
async function readShards(tag: string, before: string | undefined, limit: number): Promise<{ entries: Entry[]; exhausted: boolean }> {
  const shards = await Promise.all(Array.from({ length: TAG_SHARDS }, async (_, shard) => {
    const res = await db.send(new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: before ? 'PK = :pk AND SK < :before' : 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.tagShard(tag, shard), ...(before ? { ':before': before } : {}) },
      ProjectionExpression: 'post, author',
      ScanIndexForward: false,
      ConsistentRead: true,
      Limit: limit,
    }));
    return { items: (res.Items ?? []) as Entry[], done: !res.LastEvaluatedKey };
  }));
  const entries = shards.flatMap((s) => s.items).sort((a, b) => (a.post < b.post ? 1 : a.post > b.post ? -1 : 0));
  // Every shard's first `limit` are read, so the merge's first `limit` are the tag's.
  return { entries: entries.slice(0, limit), exhausted: entries.length <= limit && shards.every((s) => s.done) };
}

/** The authors among `authors` whose posts the caller may see (the caller and hidden accounts are decided before). */
async function visibleAuthors(callerId: string, authors: string[]): Promise<Set<string>> {
  if (!authors.length) return new Set();
  const found = await batchGet<{ isPrivate?: boolean }>(authors.flatMap((a) => [keys.user(a), keys.follow(callerId, a), keys.mute(callerId, a)]));
  return new Set(authors.filter((a) => {
    const user = found.get(itemKey(keys.user(a)));
    if (!user || found.has(itemKey(keys.mute(callerId, a)))) return false;
    return user.isPrivate !== true || found.has(itemKey(keys.follow(callerId, a)));
  }));
}

export interface TagPage {
  posts: PostItem[];
  hasMore: boolean;
  nextCursor: string | null;
}

/** One page of the tag's posts for the caller, after `cursor` (a post id). */
export async function tagPage(caller: Pick<Viewer, 'userId' | 'hidden'>, tag: string, limit: number, cursor?: string): Promise<TagPage> {
  const hidden = caller.hidden();
  const out: PostItem[] = [];
  let before = cursor;
  let exhausted = false;
  for (let round = 0; round < TAG_PAGE_ROUNDS && out.length <= limit && !exhausted; round++) {
    const need = limit + 1 - out.length;
    const read = await readShards(tag, before, need);
    exhausted = read.exhausted;
    if (!read.entries.length) break;
    before = read.entries[read.entries.length - 1]!.post;
    const hide = await hidden;
    const others = [...new Set(read.entries.map((e) => e.author))].filter((a) => a !== caller.userId && !hide.has(a));
    const seen = await visibleAuthors(caller.userId, others);
    const ids = read.entries.filter((e) => e.author === caller.userId || seen.has(e.author)).map((e) => e.post);
    if (!ids.length) continue;
    // The posts themselves, strongly consistent: one deleted or edited since its entry was read is left out.
    const posts = await batchGet<PostItem>(ids.map((id) => keys.post(id)));
    for (const id of ids) {
      const post = posts.get(itemKey(keys.post(id)));
      if (post?.hashtags?.includes(tag)) out.push(post);
    }
  }
  if (out.length > limit) return { posts: out.slice(0, limit), hasMore: true, nextCursor: out[limit - 1]!.id };
  return exhausted ? { posts: out, hasMore: false, nextCursor: null } : { posts: out, hasMore: true, nextCursor: before ?? null };
}
