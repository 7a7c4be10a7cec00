// Users who liked a post, newest first, in cursor pages (contract section 5, user lists).
// The cursor is the opaque form of the last like's index sort key `<createdAt>#<userId>`.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import { INDEX, keys } from '../keys';
import { ValidationError } from '../errors';
import { ID_PATTERN } from '../ids';

const SORT_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z#[0-9A-Z]{26}$/;

export const encodeCursor = (sk: string) => Buffer.from(sk, 'utf8').toString('base64url');

export function decodeCursor(cursor: string): string {
  const sk = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  if (!SORT_KEY.test(sk) || !ID_PATTERN.test(sk.slice(-26))) throw ValidationError.field('cursor', 'is not a cursor this list gave out');
  return sk;
}

export interface LikerPage {
  /** Liker ids of this page, newest first. */
  ids: string[];
  hasMore: boolean;
  nextCursor: string | null;
}

/** One Query of limit + 1 edges: the extra one only says whether more exist. */
export async function likers(postId: string, limit: number, cursor?: string): Promise<LikerPage> {
  const after = cursor === undefined ? undefined : decodeCursor(cursor);
  const res = await db.send(new QueryCommand({
    TableName: TABLE,
    IndexName: INDEX.GSI1,
    KeyConditionExpression: after ? 'GSI1PK = :pk AND GSI1SK < :after' : 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.likesOf(postId), ...(after ? { ':after': after } : {}) },
    ProjectionExpression: 'GSI1SK',
    ScanIndexForward: false,
    Limit: limit + 1,
  }));
  const sks = (res.Items ?? []).map((i) => String(i.GSI1SK));
  const hasMore = sks.length > limit;
  const pageSks = sks.slice(0, limit);
  return {
    ids: pageSks.map((sk) => sk.split('#').pop()!),
    hasMore,
    nextCursor: hasMore ? encodeCursor(pageSks[pageSks.length - 1]!) : null,
  };
}
