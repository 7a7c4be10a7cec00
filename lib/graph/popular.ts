// The most-followed accounts: GSI3 (KEYS_ONLY, users only) is sharded over POPULAR_SHARDS
// partitions sorted by followersCount; the top of each shard is read in parallel and merged.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import * as keys from '../keys';
import { compareIds } from '../ids';
import { INDEX, POPULAR_SHARDS } from '../keys';

export interface Popular {
  id: string;
  followersCount: number;
}

export async function mostFollowed(n: number): Promise<Popular[]> {
  const shards = await Promise.all(Array.from({ length: POPULAR_SHARDS }, (_, shard) => db.send(new QueryCommand({
    TableName: TABLE,
    IndexName: INDEX.POPULAR,
    KeyConditionExpression: 'GSI3PK = :p',
    ExpressionAttributeValues: { ':p': keys.popularShard(shard) },
    ScanIndexForward: false,
    Limit: n,
  }))));
  return shards
    .flatMap((res) => res.Items ?? [])
    .map((item) => ({ id: String(item.PK).slice('USER#'.length), followersCount: Number(item.followersCount) }))
    .sort((a, b) => b.followersCount - a.followersCount || compareIds(a.id, b.id))
    .slice(0, n);
}
