import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

export interface RecentRefreshes {
  refreshRecent(userId: string): Promise<boolean>;
  refreshLikers(postId: string): Promise<boolean>;
  refreshCommentLikers(commentId: string): Promise<boolean>;
  IndexBehind: new (...args: never[]) => Error;
  LikesMoving: new (...args: never[]) => Error;
}
export function migrateRecent(opts: { client: DynamoDBClient; table: string; lib: RecentRefreshes; segments?: number; parallel?: number; log?: (line: string) => void }):
  Promise<{ users: number; usersMoved: number; liked: number; likersMoved: number; behind: number; left: string[] }>;
