// An author's posts, newest first (GSI1 POSTS#<author>, sort key = post id), page-based.
// Page n of size l reads the first n*l index items (in 1 MB Query pages): the cost grows
// with the page number, never with the number of other posts in the table.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import * as keys from '../keys';
import { INDEX } from '../keys';
import type { PostItem } from './model';
import { pageWindow } from './pages';

export async function authorPosts(authorId: string, page: number, limit: number): Promise<PostItem[]> {
  const { skip, need } = pageWindow(page, limit);
  const items: PostItem[] = [];
  let next: Record<string, unknown> | undefined;
  do {
    const res = await db.send(new QueryCommand({
      TableName: TABLE,
      IndexName: INDEX.GSI1,
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.postsOf(authorId) },
      ScanIndexForward: false,
      Limit: need - items.length,
      ExclusiveStartKey: next,
    }));
    items.push(...((res.Items ?? []) as PostItem[]));
    next = res.LastEvaluatedKey;
  } while (next && items.length < need);
  return items.slice(skip, need);
}
