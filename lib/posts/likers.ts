// Users who liked a post, newest first, in cursor pages (contract section 5, user lists).
// The cursor is the user lists' opaque cursor (lib/graph/cursor.ts) of the last like's
// index sort key `<createdAt>#<userId>`.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import * as keys from '../keys';
import { INDEX } from '../keys';
import { visiblePage, type ListRead } from '../graph/lists';

export interface LikerPage {
  /** Liker ids of this page, newest first. */
  ids: string[];
  hasMore: boolean;
  nextCursor: string | null;
}

/** The likes index sort keys (`<createdAt>#<userId>`) of a post's or a comment's newest likes, older than `after` when given: one Query. */
export async function likeKeys(targetId: string, limit: number, after?: string): Promise<string[]> {
  const res = await db.send(new QueryCommand({
    TableName: TABLE,
    IndexName: INDEX.GSI1,
    KeyConditionExpression: after ? 'GSI1PK = :pk AND GSI1SK < :after' : 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.likesOf(targetId), ...(after ? { ':after': after } : {}) },
    ProjectionExpression: 'GSI1SK',
    ScanIndexForward: false,
    Limit: limit,
  }));
  return (res.Items ?? []).map((i) => String(i.GSI1SK));
}

/**
 * One Query of limit + 1 edges: the extra one only says whether more exist. Given the ids
 * hidden from the caller, it reads on past them (lib/graph/lists.ts visiblePage): the page,
 * hasMore and the cursor are of visible likers only.
 */
export async function likers(postId: string, limit: number, cursor?: string, hidden?: Promise<ReadonlySet<string>>): Promise<LikerPage> {
  const read: ListRead = async (after, count) => {
    const sortKeys = await likeKeys(postId, count, after);
    return { sortKeys, end: sortKeys.length < count };
  };
  return visiblePage(read, limit, cursor, hidden);
}
