// The explore feed (contract sections 5-7, 18): posts of authors who are neither the caller,
// nor followed by the caller, nor on either side of a block with the caller, nor private, nor
// muted by the caller; newest first, page-based, with an exact total derived from counters,
// never from counting posts.
//
// Round trips (docs/ARCHITECTURE.md, "Posts and explore"):
//   1. in parallel: caller's user item, the 8 post counter shards, the caller's following
//      from its newest end, the caller's mutes, the first read of the 8 feed shards (blocks and blocked-by are the
//      caller's block lists that authentication reads on every GET); for a caller whose item
//      counts more follows than a Query page holds, the following list's oldest end too,
//      started when that item arrives (authentication began reading it before the handler,
//      so it mostly lands within this round, but it is a step after the item);
//   2. only past ~2 pages of follows: the middle of the following list (one Query page); a
//      caller whose count was low and whose newest page stopped short reads on from it, page
//      by page;
//   3. in parallel: the excluded and muted authors' user items (postsCount, isPrivate) and
//      the page's presentation (likers, isLiked / isBookmarked), after the merge; before it,
//      the user items of the page's authors (isPrivate), again while the page met private
//      ones, with more of the authors read beyond it each time.
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import { batchGet } from '../db/batch';
import * as keys from '../keys';
import { INDEX } from '../keys';
import type { UserItem } from '../users/model';
import { HIDDEN_LIMIT, type BlockLists } from '../graph/hidden';
import { FeedReader } from './feed';
import { privateAmong } from '../graph/visibility';
import { EAGER_DEPTH, pageWindow } from './pages';
import type { PostItem } from './model';

type Page = { items: Record<string, unknown>[]; next?: Record<string, unknown> };

/** At most this many authors beyond the page are checked for privacy in one round (one BatchGet of 100 each). */
const LOOKAHEAD_AUTHORS = 400;

async function queryPage(input: Omit<QueryCommandInput, 'TableName'>): Promise<Page> {
  const res = await db.send(new QueryCommand({ TableName: TABLE, ...input }));
  return { items: res.Items ?? [], next: res.LastEvaluatedKey };
}

/** Where a read of an index partition starts and stops (ids at the end of `<createdAt>#<id>` sort keys). */
interface EdgeRead {
  /** Only sort keys between these two, both included. */
  range?: { lo: string; hi: string };
  /** Newest first, after this key (the rest of a partition whose first page was read). */
  after?: Record<string, unknown>;
  /** Items per Query page: unset in production (1 MB pages); tests set it to see pages turn. */
  limit?: number;
}

/** All pages of an index partition, as the ids at the end of `<createdAt>#<id>` sort keys. */
async function allEdgeIds(index: 'GSI1' | 'GSI2', pk: string, read: EdgeRead = {}): Promise<string[]> {
  const sk = `${index}SK`;
  const ids: string[] = [];
  let next = read.after;
  do {
    const res = await queryPage({
      IndexName: INDEX[index],
      KeyConditionExpression: read.range ? '#pk = :pk AND #sk BETWEEN :lo AND :hi' : '#pk = :pk',
      ExpressionAttributeNames: { '#pk': `${index}PK`, '#sk': sk },
      ExpressionAttributeValues: { ':pk': pk, ...(read.range ? { ':lo': read.range.lo, ':hi': read.range.hi } : {}) },
      ProjectionExpression: '#sk',
      ScanIndexForward: !read.after,
      ExclusiveStartKey: next,
      ...(read.limit ? { Limit: read.limit } : {}),
    });
    ids.push(...res.items.map((i) => String(i[sk]).split('#').pop()!));
    next = res.next;
  } while (next);
  return ids;
}

/**
 * Follows that one Query page certainly holds: a page is 1 MB of follow edges, about 2,500 of
 * them, and this leaves a margin for larger edge items.
 */
export const FOLLOWS_PER_PAGE = 2_000;

/**
 * Everyone the caller follows (at most 7,500). The newest end of the list is read at once;
 * when the caller's item counts more follows than a page holds, the oldest end is read too,
 * started as soon as the item is there, and only when both ends stop short of each other is
 * the middle read, as one more Query. So nearly every caller reads the list once (reading both
 * ends of a one-page list would read it twice, twice the read units); a caller with up to two
 * pages of follows reads them in the newest end's time plus whatever of the item's read is
 * still to come (authentication starts it before the handler). A count that was low only
 * costs round trips: a newest end that stops short is read on to the end.
 */
export async function allFollowing(callerId: string, followingCount: Promise<number>, pages: { limit?: number } = {}): Promise<Set<string>> {
  const pk = keys.followingOf(callerId);
  const perPage = pages.limit ?? FOLLOWS_PER_PAGE;
  const end = (forward: boolean) => queryPage({
    IndexName: INDEX.GSI1,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': pk },
    ProjectionExpression: 'GSI1SK',
    ScanIndexForward: forward,
    ...(pages.limit ? { Limit: pages.limit } : {}),
  });
  const newestRead = end(false);
  newestRead.catch(() => undefined);
  const [newest, oldest] = await Promise.all([newestRead, followingCount.then((n) => (n > perPage ? end(true) : undefined))]);
  const skOf = (i: Record<string, unknown>) => String(i.GSI1SK);
  const ids = new Set([...newest.items, ...(oldest?.items ?? [])].map((i) => skOf(i).split('#').pop()!));
  if (!newest.next || (oldest && !oldest.next)) return ids;
  const hi = skOf(newest.items[newest.items.length - 1]!);
  const lo = oldest && skOf(oldest.items[oldest.items.length - 1]!);
  // Both ends read: only the middle between them is left, if the two pages did not meet.
  // The newest end alone: the rest after its page.
  if (lo !== undefined && lo >= hi) return ids;
  const rest: EdgeRead = lo !== undefined ? { range: { lo, hi } } : { after: newest.next };
  for (const id of await allEdgeIds('GSI1', pk, { ...rest, limit: pages.limit })) ids.add(id);
  return ids;
}

/**
 * Authors whose posts explore leaves out for this caller (the caller not included). The
 * block lists authentication already reads are used as they are, unless one was cut at
 * HIDDEN_LIMIT: totalPosts must subtract every excluded author, so that list is read whole.
 */
export async function excludedAuthors(callerId: string, followingCount: Promise<number>, blockLists: Promise<BlockLists>): Promise<Set<string>> {
  const whole = (ids: string[], index: 'GSI1' | 'GSI2', partition: string) =>
    (ids.length < HIDDEN_LIMIT ? ids : allEdgeIds(index, partition));
  const [following, blocks, blockedBy] = await Promise.all([
    allFollowing(callerId, followingCount),
    blockLists.then((l) => whole(l.blocked, 'GSI1', keys.blocksOf(callerId))),
    blockLists.then((l) => whole(l.blockedBy, 'GSI2', keys.blockedByOf(callerId))),
  ]);
  const out = new Set([...following, ...blocks, ...blockedBy]);
  out.delete(callerId);
  return out;
}

/** Everyone the caller muted: the mute edges of its partition, read whole (about 4,000 a Query page, 16 a read unit). */
export async function allMuted(callerId: string): Promise<Set<string>> {
  const { PK, SK: prefix } = keys.mute(callerId, '');
  const ids = new Set<string>();
  let next: Record<string, unknown> | undefined;
  do {
    const res = await queryPage({
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': PK, ':prefix': prefix },
      ProjectionExpression: 'SK',
      ExclusiveStartKey: next,
    });
    for (const i of res.items) ids.add(String(i.SK).slice(prefix.length));
    next = res.next;
  } while (next);
  return ids;
}

/**
 * The live posts of public accounts: the 8 shards of the post counter (one Query of 8 small
 * items), each counting all its posts and, apart, the private accounts' (lib/posts/write.ts).
 */
export async function livePublicPostCount(): Promise<number> {
  const res = await queryPage({
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.postCounterShard(0).PK },
    ConsistentRead: true,
  });
  return res.items.reduce((sum, i) => sum + Number(i.count ?? 0) - Number(i.privatePosts ?? 0), 0);
}

/**
 * The summed postsCount of some users, private accounts left out (their posts are not in the
 * public count they are taken from), one BatchGet per 100, in parallel. Eventually
 * consistent, at half the read units of a strong read: one read unit per excluded author is
 * explore's largest cost for a caller who follows many. The contract asks the total to equal
 * the walk "while no data changes", which such a read meets once it has caught up with the
 * last post (typically within a second; DynamoDB promises no bound), as the feed index the
 * walk reads does.
 */
export async function postsOf(userIds: Iterable<string>): Promise<number> {
  const ids = [...userIds];
  if (!ids.length) return 0;
  const found = await batchGet<Pick<UserItem, 'postsCount' | 'isPrivate'>>(ids.map((id) => keys.user(id)), { projection: 'postsCount, isPrivate', consistent: false });
  let sum = 0;
  for (const u of found.values()) if (u.isPrivate !== true) sum += Number(u.postsCount ?? 0);
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
  const user = caller.user();
  const [me, live, excluded, muted] = await Promise.all([
    user,
    livePublicPostCount(),
    excludedAuthors(caller.userId, user.then((u) => u.followingCount ?? 0), caller.blockLists()),
    allMuted(caller.userId),
  ]);
  // Muted authors (contract section 18) are left out like excluded ones; private authors are
  // found among the authors a read brings, a BatchGet of the page's unchecked ones; the page is
  // taken again while it met private ones. From the second round on, the BatchGet also takes
  // unchecked authors of the posts read beyond the page, twice as many each round: a feed whose
  // newest posts are many private accounts' costs a few rounds, not one per page of them.
  const hiddenAuthors = new Set<string>();
  const checked = new Set<string>();
  const keep = (p: PostItem) => p.author !== caller.userId && !excluded.has(p.author) && !muted.has(p.author) && !hiddenAuthors.has(p.author);
  const unchecked = (posts: PostItem[]) => [...new Set(posts.map((p) => p.author))].filter((a) => !checked.has(a));
  const takeVisible = async (reader: FeedReader): Promise<PostItem[]> => {
    for (let ahead = 0; ; ahead = Math.min(Math.max(need, ahead * 2), LOOKAHEAD_AUTHORS)) {
      const all = await reader.take(need, keep);
      const onPage = unchecked(all);
      if (!onPage.length) return all;
      const beyond = ahead ? unchecked(reader.final(keep)).filter((a) => !onPage.includes(a)).slice(0, ahead) : [];
      [...onPage, ...beyond].forEach((a) => checked.add(a));
      const hidden = await privateAmong([...onPage, ...beyond]);
      hidden.forEach((a) => hiddenAuthors.add(a));
      if (!onPage.some((a) => hidden.has(a))) return all;
    }
  };
  // Public posts, less the caller's own and those of the public authors it excludes or muted.
  const leftOut = new Set([...excluded, ...muted]);
  leftOut.delete(caller.userId);
  const mine = me.isPrivate === true ? 0 : (me.postsCount ?? 0);
  const total = postsOf(leftOut).then((leftOutPosts) => Math.max(0, live - mine - leftOutPosts));
  const pageOf = async (): Promise<T[]> => {
    if (!eager && skip >= (await total)) return [];
    const all = await takeVisible(eager ?? new FeedReader().start(need));
    return present(all.slice(skip));
  };
  const [posts, totalPosts] = await Promise.all([pageOf(), total]);
  return { posts, totalPosts };
}
