import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

export function actorSortKey(item: { actorId: string; _id: string }): string;
export function migrateTraceActors(opts: { client: DynamoDBClient; table: string; segments?: number; log?: (line: string) => void }):
  Promise<{ records: number; moved: number; gone: number }>;
