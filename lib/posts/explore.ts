// The explore feed (contract sections 5-7): posts of authors who are neither the caller,
// nor followed by the caller, nor on either side of a block with the caller; newest
// first, page-based, with an exact total derived from counters, never from counting posts.
//
// Round trips (docs/ARCHITECTURE.md, "Posts and explore"):
//   1. in parallel: caller's user item, the 8 post counter shards, the caller's following
//      from both ends, the first read of the 8 feed shards (blocks and blocked-by are the
//      caller's block lists that authentication reads on every GET);
//   2. only past ~2 pages of follows: the middle of the following list (one Query page);
//   3. in parallel: the excluded authors' user items (postsCount) and the page's
//      presentation (likers, isLiked / isBookmarked), after the merge.
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import { batchGet } from '../db/batch';
import * as keys from '../keys';
import { INDEX } from '../keys';
import type { UserItem } from '../users/model';
import { HIDDEN_LIMIT, type BlockLists } from '../graph/hidden';
import { FeedReader } from './feed';
import { EAGER_DEPTH, pageWindow } from './pages';
import type { PostItem } from './model';

type Page = { items: Record<string, unknown>[]; next?: Record<string, unknown> };

async function queryPage(input: Omit<QueryCommandInput, 'TableName'>): Promise<Page> {
  const res = await db.send(new QueryCommand({ TableName: TABLE, ...input }));
  return { items: res.Items ?? [], next: res.LastEvaluatedKey };
}

/** All pages of an index partition, as the ids at the end of `<createdAt>#<id>` sort keys. */
async function allEdgeIds(index: 'GSI1' | 'GSI2', pk: string, range?: { lo: string; hi: string }): Promise<string[]> {
  const sk = `${index}SK`;
  const ids: string[] = [];
  let next: Record<string, unknown> | undefined;
  do {
    const res = await queryPage({
      IndexName: INDEX[index],
      KeyConditionExpression: range ? '#pk = :pk AND #sk BETWEEN :lo AND :hi' : '#pk = :pk',
      ExpressionAttributeNames: { '#pk': `${index}PK`, '#sk': sk },
      ExpressionAttributeValues: { ':pk': pk, ...(range ?? {}) },
      ProjectionExpression: '#sk',
      ExclusiveStartKey: next,
    });
    ids.push(...res.items.map((i) => String(i[sk]).split('#').pop()!));
    next = res.next;
  } while (next);
  return ids;
}

/**
 * Everyone the caller follows (at most 7,500), in one round trip for up to two Query pages
 * of follows (~2,500 each): the list is read from its oldest and its newest end at once;
 * only when both ends stop short of each other is the middle read, as one more Query.
 */
export async function allFollowing(callerId: string): Promise<Set<string>> {
  const pk = keys.followingOf(callerId);
  const end = (forward: boolean) => queryPage({
    IndexName: INDEX.GSI1,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': pk },
    ProjectionExpression: 'GSI1SK',
    ScanIndexForward: forward,
  });
  const [oldest, newest] = await Promise.all([end(true), end(false)]);
  const skOf = (i: Record<string, unknown>) => String(i.GSI1SK);
  const ids = new Set([...oldest.items, ...newest.items].map((i) => skOf(i).split('#').pop()!));
  if (!oldest.next || !newest.next) return ids;
  const lo = skOf(oldest.items[oldest.items.length - 1]!);
  const hi = skOf(newest.items[newest.items.length - 1]!);
  if (lo < hi) for (const id of await allEdgeIds('GSI1', pk, { lo, hi })) ids.add(id);
  return ids;
}

/**
 * Authors whose posts explore leaves out for this caller (the caller not included). The
 * block lists authentication already reads are used as they are, unless one was cut at
 * HIDDEN_LIMIT: totalPosts must subtract every excluded author, so that list is read whole.
 */
export async function excludedAuthors(callerId: string, blockLists: Promise<BlockLists>): Promise<Set<string>> {
  const whole = (ids: string[], index: 'GSI1' | 'GSI2', partition: string) =>
    (ids.length < HIDDEN_LIMIT ? ids : allEdgeIds(index, partition));
  const [following, blocks, blockedBy] = await Promise.all([
    allFollowing(callerId),
    blockLists.then((l) => whole(l.blocked, 'GSI1', keys.blocksOf(callerId))),
    blockLists.then((l) => whole(l.blockedBy, 'GSI2', keys.blockedByOf(callerId))),
  ]);
  const out = new Set([...following, ...blocks, ...blockedBy]);
  out.delete(callerId);
  return out;
}

/** All live posts: the sum of the 8 shards of the post counter (one Query of 8 small items). */
export async function livePostCount(): Promise<number> {
  const res = await queryPage({
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.postCounterShard(0).PK },
    ConsistentRead: true,
  });
  return res.items.reduce((sum, i) => sum + Number(i.count ?? 0), 0);
}

/** The summed postsCount of some users (one BatchGet per 100, in parallel). */
export async function postsOf(userIds: Iterable<string>): Promise<number> {
  const ids = [...userIds];
  if (!ids.length) return 0;
  const found = await batchGet<Pick<UserItem, 'postsCount'>>(ids.map((id) => keys.user(id)), { projection: 'postsCount' });
  let sum = 0;
  for (const u of found.values()) sum += Number(u.postsCount ?? 0);
  return sum;
}

/**
 * Page `page` of `limit` posts of the caller's explore feed, and the exact number of
 * posts the feed holds. `present` turns the page into answers; it runs beside the
 * excluded authors' counter read.
 */
export async function explore<T>(
  caller: { userId: string; user(): Promise<UserItem>; blockLists(): Promise<BlockLists> },
  page: number,
  limit: number,
  present: (posts: PostItem[]) => Promise<T[]>,
): Promise<{ posts: T[]; totalPosts: number }> {
  const { skip, need } = pageWindow(page, limit);
  const eager = skip < EAGER_DEPTH ? new FeedReader().start(need) : undefined;
  const [me, live, excluded] = await Promise.all([caller.user(), livePostCount(), excludedAuthors(caller.userId, caller.blockLists())]);
  const keep = (p: PostItem) => p.author !== caller.userId && !excluded.has(p.author);
  const total = postsOf(excluded).then((excludedPosts) => Math.max(0, live - (me.postsCount ?? 0) - excludedPosts));
  const pageOf = async (): Promise<T[]> => {
    if (!eager && skip >= (await total)) return [];
    const all = await (eager ?? new FeedReader().start(need)).take(need, keep);
    return present(all.slice(skip));
  };
  const [posts, totalPosts] = await Promise.all([pageOf(), total]);
  return { posts, totalPosts };
}
