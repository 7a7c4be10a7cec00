// One page of a user's relations, newest first: followers (GSI2), following and blocks
// (GSI1). A page reads limit + 1 index entries, so hasMore is exact (no empty last page),
// and the cursor is the sort key of the last entry of the page.
//
// Given the ids hidden from the caller (followers, following, a post's likers: contract
// section 6), a page is made of visible entries only: it reads on past hidden ones until it
// holds limit + 1 visible entries or the list ends, so hasMore says whether a visible entry
// follows, the cursor is the last entry shown, and no page but an empty list's is empty. A
// hidden user's id (and when it followed) never reaches the caller through a cursor, which a
// page cut after a hidden entry used to carry. The common page, with nothing hidden in it,
// reads exactly as before: one Query of limit + 1.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import * as keys from '../keys';
import { INDEX } from '../keys';
import { decodeCursor, encodeCursor } from './cursor';

export type ListKind = 'followers' | 'following' | 'blocked' | 'bookmarks' | 'requests' | 'muted';

interface ListDef {
  index: 'GSI1' | 'GSI2';
  partition: (ownerId: string) => string;
  /** The base-table key of the edge between the list's owner and one entry. */
  edge: (ownerId: string, otherId: string) => { PK: string; SK: string };
}

const LISTS: Record<ListKind, ListDef> = {
  followers: { index: 'GSI2', partition: keys.followersOf, edge: (owner, other) => keys.follow(other, owner) },
  following: { index: 'GSI1', partition: keys.followingOf, edge: (owner, other) => keys.follow(owner, other) },
  blocked: { index: 'GSI1', partition: keys.blocksOf, edge: (owner, other) => keys.block(owner, other) },
  // A user's bookmarks (GET /posts/bookmarks): the entries are post ids.
  bookmarks: { index: 'GSI1', partition: keys.bookmarksOf, edge: (owner, postId) => keys.bookmark(owner, postId) },
  // Contract section 18: a user's pending incoming follow requests, and the accounts it muted.
  requests: { index: 'GSI1', partition: keys.requestsTo, edge: (owner, requester) => keys.followRequest(requester, owner) },
  muted: { index: 'GSI1', partition: keys.mutesOf, edge: (owner, other) => keys.mute(owner, other) },
};

export interface EdgePage {
  ids: string[];
  pagination: { hasMore: boolean; nextCursor: string | null };
}

const idOf = (sortKey: string) => sortKey.slice(sortKey.lastIndexOf('#') + 1);

/** Entries read per further Query once hidden ones were met: hidden runs are usually short, round trips are not free. */
export const REFILL_MIN = 25;

/** One read of a list: sort keys after `after` (exclusive, in the list's order), at most `count`; `end` when none follow. */
export type ListRead = (after: string | undefined, count: number) => Promise<{ sortKeys: string[]; end: boolean }>;

/**
 * A page of `limit` entries after `cursor` (the user lists' opaque cursor), without `hidden`
 * ids: reads until it holds limit + 1 visible entries or the list ends. The ids, hasMore and
 * the next cursor are of visible entries only.
 */
export async function visiblePage(read: ListRead, limit: number, cursor: string | undefined, hidden?: Promise<ReadonlySet<string>>): Promise<{ ids: string[]; hasMore: boolean; nextCursor: string | null }> {
  const kept: string[] = [];
  let at = cursor === undefined ? undefined : decodeCursor(cursor);
  let count = limit + 1;
  for (;;) {
    const [batch, skip] = await Promise.all([read(at, count), hidden]);
    for (const sk of batch.sortKeys) if (!skip?.has(idOf(sk))) kept.push(sk);
    if (kept.length > limit || batch.end || !batch.sortKeys.length) break;
    at = batch.sortKeys[batch.sortKeys.length - 1];
    count = Math.max(limit + 1 - kept.length, REFILL_MIN);
  }
  const page = kept.slice(0, limit);
  const hasMore = kept.length > limit;
  return { ids: page.map(idOf), hasMore, nextCursor: hasMore ? encodeCursor(page[page.length - 1]!) : null };
}

export async function edgePage(kind: ListKind, ownerId: string, limit: number, cursor?: string, hidden?: Promise<ReadonlySet<string>>): Promise<EdgePage> {
  const def = LISTS[kind];
  const pk = `${def.index}PK`;
  const sk = `${def.index}SK`;
  const partition = def.partition(ownerId);
  const read: ListRead = async (after, count) => {
    const res = await db.send(new QueryCommand({
      TableName: TABLE,
      IndexName: INDEX[def.index],
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': pk, '#sk': sk },
      ExpressionAttributeValues: { ':pk': partition },
      ProjectionExpression: '#sk',
      ScanIndexForward: false,
      Limit: count,
      ExclusiveStartKey: after ? { [pk]: partition, [sk]: after, ...def.edge(ownerId, idOf(after)) } : undefined,
    }));
    // DynamoDB may stop early (1 MB): only a missing LastEvaluatedKey ends the list.
    return { sortKeys: (res.Items ?? []).map((item) => String(item[sk])), end: res.LastEvaluatedKey === undefined };
  };
  const { ids, hasMore, nextCursor } = await visiblePage(read, limit, cursor, hidden);
  return { ids, pagination: { hasMore, nextCursor } };
}
