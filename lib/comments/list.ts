// A page of a thread (a post's top-level comments or a comment's replies), oldest first,
// after an exclusive createdAt cursor. createdAt is unique within a thread, so the cursor
// can neither skip nor repeat an item. Items whose author is on either side of a block
// with the caller are left out; the page then reads further until it is full or the
// thread ends, within MAX_ROUNDS queries, so hasMore and nextCursor stay right. Past that
// bound a page with something to show ends there (hasMore, its last item the cursor); one
// with nothing reads on, in growing reads, until it finds an item or the thread ends: the
// contract's nextCursor is the createdAt of the last item returned, null when none was, so a
// page is empty only at the end of its thread.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import { batchGet, itemKey } from '../db/batch';
import * as keys from '../keys';
import { INDEX } from '../keys';
import { blockedEitherWay, relations, type Relation } from '../graph/relations';
import { REFILL_MIN } from '../graph/lists';
import { edgeIds, EMBED_LIMIT } from '../users/repo';
import { toComment, type Comment, type CommentItem } from './model';
import { currentLikers, LIKERS_NAMES, LIKERS_PROJECTION, type LikersView } from '../posts/likers-item';

const MAX_ROUNDS = 4;
/** The largest read of a page that has met nothing to show in MAX_ROUNDS (a long hidden run). */
const RUN_READ_MAX = 1_000;

async function queryAfter(partition: string, after: string | undefined, limit: number): Promise<{ items: CommentItem[]; end: boolean }> {
  const res = await db.send(new QueryCommand({
    TableName: TABLE,
    IndexName: INDEX.GSI1,
    KeyConditionExpression: after ? 'GSI1PK = :pk AND GSI1SK > :after' : 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': partition, ...(after ? { ':after': after } : {}) },
    ScanIndexForward: true,
    Limit: limit,
  }));
  return { items: (res.Items ?? []) as CommentItem[], end: !res.LastEvaluatedKey };
}

/**
 * Like arrays of the items that have likes, and whether the caller is among their likers,
 * started beside the block check of the same items: one BatchGet of their recent likers items
 * (kept by the stream, lib/posts/recent-likers.ts) and of the caller's like edges, strongly
 * consistent as a post's flags are (the caller sees its own like at once); a recent likers item
 * is used while its v and likesCount are the comment's, and a likes-index Query is sent only for
 * a comment whose item is behind.
 */
async function likesOf(items: CommentItem[], callerId: string): Promise<(readonly [string, string[], boolean])[]> {
  const liked = items.filter((c) => c.likesCount > 0);
  const found = liked.length
    ? await batchGet<LikersView>(liked.flatMap((c) => [keys.commentLikers(c.id), keys.commentLike(c.id, callerId)]), { projection: LIKERS_PROJECTION, names: LIKERS_NAMES })
    : new Map<string, LikersView>();
  return Promise.all(items.map(async (c) => {
    if (!c.likesCount) return [c.id, [], false] as const;
    const likes = currentLikers(found.get(itemKey(keys.commentLikers(c.id))), c) ?? await edgeIds('GSI1', keys.likesOf(c.id), EMBED_LIMIT.list);
    return [c.id, likes, found.has(itemKey(keys.commentLike(c.id, callerId)))] as const;
  }));
}

export interface ThreadPage<H> {
  head: H;
  comments: Comment[];
  pagination: { hasMore: boolean; nextCursor: string | null };
}

export interface ThreadSpec<H> {
  callerId: string;
  partition: string;
  cursor: string | undefined;
  limit: number;
  /** The record the thread hangs on, read beside the first query; 404 inside when missing. */
  head: Promise<H>;
  /** Authors whose block of the caller hides the whole thread (404). */
  headAuthors: (head: H) => string[];
  /**
   * Authors hidden from the caller by a block in either direction, whose thread is hidden
   * with them: the replies of a comment the lists leave out are not read either.
   */
  hiddenEitherWay?: (head: H) => string[];
  /** Further reads the head depends on (its post, its parent), beside the first block check. */
  checkHead?: (head: H) => Promise<void>;
  hidden: () => Error;
}

export async function threadPage<H>(spec: ThreadSpec<H>): Promise<ThreadPage<H>> {
  const { callerId, partition, limit } = spec;
  const [head, first] = await Promise.all([spec.head, queryAfter(partition, spec.cursor, limit + 1)]);
  const rel = new Map<string, Relation>();
  const likes = new Map<string, string[]>();
  const likedByCaller = new Set<string>();
  const visible: CommentItem[] = [];
  let batch = first;
  let scannedTo = spec.cursor;
  for (let round = 1; ; round++) {
    const headAuthors = round === 1 ? spec.headAuthors(head) : [];
    const unknown = [...new Set([...headAuthors, ...batch.items.map((c) => c.author)])].filter((a) => !rel.has(a));
    const [found, liked] = await Promise.all([
      unknown.length ? relations(callerId, unknown) : new Map<string, Relation>(),
      // Not the likes of items whose author is already known to be hidden (a long run of one).
      likesOf(batch.items.filter((c) => !blockedEitherWay(rel.get(c.author))), callerId),
      round === 1 ? spec.checkHead?.(head) : undefined,
    ]);
    for (const [k, v] of found) rel.set(k, v);
    for (const [k, v, mine] of liked) {
      likes.set(k, v);
      if (mine) likedByCaller.add(k);
    }
    if (headAuthors.some((a) => rel.get(a)?.blocksCaller)) throw spec.hidden();
    if (round === 1 && (spec.hiddenEitherWay?.(head) ?? []).some((a) => rel.get(a)?.isBlocked)) throw spec.hidden();

    for (const item of batch.items) {
      if (visible.length > limit) break;
      scannedTo = item.createdAt;
      if (!blockedEitherWay(rel.get(item.author))) visible.push(item);
    }
    const present = (items: CommentItem[]) => items.map((c) => toComment(c, likes.get(c.id) ?? [], likedByCaller.has(c.id)));
    if (visible.length > limit) {
      const page = visible.slice(0, limit);
      return { head, comments: present(page), pagination: { hasMore: true, nextCursor: page[limit - 1]!.createdAt } };
    }
    if (batch.end) {
      return {
        head,
        comments: present(visible),
        pagination: { hasMore: false, nextCursor: visible.length ? visible[visible.length - 1]!.createdAt : null },
      };
    }
    if (round >= MAX_ROUNDS && visible.length) {
      // Bound reached inside a run of hidden items, with something to show: the cursor is its
      // last item as usual, and the next call reads on from there.
      return { head, comments: present(visible), pagination: { hasMore: true, nextCursor: visible[visible.length - 1]!.createdAt } };
    }
    const count = round < MAX_ROUNDS ? Math.max(limit + 1 - visible.length, REFILL_MIN) : Math.min(RUN_READ_MAX, REFILL_MIN * 2 ** (round - MAX_ROUNDS + 1));
    batch = await queryAfter(partition, scannedTo, count);
  }
}
