// Home feed helpers: the endpoint, a whole walk of it, and the stored entries of a feed.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../../lib/db/client';
import * as keys from '../../lib/keys';
import { call } from './invoke';
import { handler as feedH } from '../../functions/posts/feed';

export const feed = (token: string, query: Record<string, string> = {}) => call(feedH, 'GET /posts/feed', { token, query });

export const feedIds = async (token: string, limit = 50): Promise<string[]> => {
  const res = await feed(token, { limit: String(limit) });
  if (res.status !== 200) throw new Error(`feed: ${res.status} ${res.text}`);
  return res.body.posts.map((p: { _id: string }) => p._id);
};

/** Every post id of a walk from no cursor until hasMore is false. */
export async function walkFeed(token: string, limit: number, between?: (page: number) => Promise<void>): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 1; page < 1000; page++) {
    const res = await feed(token, { limit: String(limit), ...(cursor ? { cursor } : {}) });
    if (res.status !== 200) throw new Error(`feed: ${res.status} ${res.text}`);
    ids.push(...res.body.posts.map((p: { _id: string }) => p._id));
    if (!res.body.pagination.hasMore) return ids;
    cursor = res.body.pagination.nextCursor;
    await between?.(page);
  }
  throw new Error('feed walk did not end');
}

/** The stored entries of a reader's feed partition (post ids, newest first). */
export async function storedEntries(readerId: string): Promise<{ postId: string; authorId: string }[]> {
  const out: { postId: string; authorId: string }[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db.send(new QueryCommand({
      TableName: TABLE, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': keys.homeFeed(readerId) },
      ConsistentRead: true, ScanIndexForward: false, ExclusiveStartKey: start,
    }));
    out.push(...(res.Items ?? []).map((i) => ({ postId: String(i.SK), authorId: String(i.authorId) })));
    start = res.LastEvaluatedKey;
  } while (start);
  return out;
}
