// One page of a user's relations, newest first: followers (GSI2), following and blocks
// (GSI1). A page reads limit + 1 index entries, so hasMore is exact (no empty last page),
// and the cursor is the sort key of the last entry of the page: filtering entries out
// afterwards (blocks) never moves the cursor, so walking pages sees each entry once.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import * as keys from '../keys';
import { INDEX } from '../keys';
import { decodeCursor, encodeCursor } from './cursor';

export type ListKind = 'followers' | 'following' | 'blocked' | 'bookmarks';

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
};

export interface EdgePage {
  ids: string[];
  pagination: { hasMore: boolean; nextCursor: string | null };
}

const idOf = (sortKey: string) => sortKey.slice(sortKey.lastIndexOf('#') + 1);

export async function edgePage(kind: ListKind, ownerId: string, limit: number, cursor?: string): Promise<EdgePage> {
  const def = LISTS[kind];
  const pk = `${def.index}PK`;
  const sk = `${def.index}SK`;
  const partition = def.partition(ownerId);
  const after = cursor === undefined ? undefined : decodeCursor(cursor);
  const res = await db.send(new QueryCommand({
    TableName: TABLE,
    IndexName: INDEX[def.index],
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': pk, '#sk': sk },
    ExpressionAttributeValues: { ':pk': partition },
    ProjectionExpression: '#sk',
    ScanIndexForward: false,
    Limit: limit + 1,
    ExclusiveStartKey: after ? { [pk]: partition, [sk]: after, ...def.edge(ownerId, idOf(after)) } : undefined,
  }));
  const sortKeys = (res.Items ?? []).map((item) => String(item[sk]));
  const page = sortKeys.slice(0, limit);
  // More than a page came back, or DynamoDB stopped early (1 MB): either way there is more.
  const hasMore = sortKeys.length > limit || (res.LastEvaluatedKey !== undefined && page.length > 0);
  return {
    ids: page.map(idOf),
    pagination: { hasMore, nextCursor: hasMore ? encodeCursor(page[page.length - 1]!) : null },
  };
}
