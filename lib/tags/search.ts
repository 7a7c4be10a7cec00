// Tag search (GET /tags?query=, contract section 19): the tags whose normalized name starts
// with the normalized query, highest postsCount first, ties by name (code-point order), tags of
// postsCount 0 left out. The directory (keys.tagDirectory, kept by lib/tags/counts.ts) holds
// one item per tag, partitioned by the name's first code point and sorted by name: a prefix is
// one Query range. It reads at most SEARCH_READ_LIMIT names of the prefix (the longest
// prefixes' candidates are few; a one-letter query reads that many at most) and ranks them.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import * as keys from '../keys';

/** How many tags of a prefix one search ranks at most (one Query page of small items). */
export const SEARCH_READ_LIMIT = 1000;

export interface TagSummary {
  name: string;
  postsCount: number;
}

/** Highest postsCount first, ties by name in code-point order. */
export const byCountThenName = (a: TagSummary, b: TagSummary): number =>
  b.postsCount - a.postsCount || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export async function searchTags(prefix: string, limit: number): Promise<TagSummary[]> {
  const found: TagSummary[] = [];
  let start: Record<string, unknown> | undefined;
  let read = 0;
  do {
    const res = await db.send(new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.tagDirectoryOf(prefix), ':prefix': prefix },
      ProjectionExpression: 'SK, postsCount',
      Limit: SEARCH_READ_LIMIT - read,
      ExclusiveStartKey: start,
    }));
    for (const i of res.Items ?? []) {
      read++;
      const postsCount = Number(i.postsCount ?? 0);
      if (postsCount > 0) found.push({ name: String(i.SK), postsCount });
    }
    start = res.LastEvaluatedKey;
  } while (start && read < SEARCH_READ_LIMIT);
  return found.sort(byCountThenName).slice(0, limit);
}
