import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

export function mirrorOf(edge: { blockerId: string; blockedId: string; createdAt: string }): Record<string, string>;
export function migrateBlockMirrors(opts: { client: DynamoDBClient; table: string; segments?: number; log?: (line: string) => void }):
  Promise<{ edges: number; written: number; present: number; removed: number }>;
