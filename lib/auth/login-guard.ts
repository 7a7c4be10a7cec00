// The login lock (contract section 2): 10 failed logins for one account within 15 minutes
// lock it for 15 minutes (429 with Retry-After). "Within 15 minutes" is any 15 minutes, not a
// window fixed at the first failure (which let 9 failures either side of its end through),
// so the item keeps the times of the account's last 10 failures: bounded, whatever happens.
// A successful login does not clear them: the contract counts failures, not failures since
// the last success. Every write is conditional on the version it read, so racing failures
// are all counted.
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { db, TABLE } from '../db/client';
import { keys } from '../keys';
import { TooManyAttempts } from '../errors';

export const MAX_FAILURES = 10;
export const WINDOW_MS = 15 * 60_000;
export const LOCK_MS = 15 * 60_000;

export interface Guard {
  /** Epoch ms of the latest failures, oldest first, at most MAX_FAILURES. */
  failedAt?: number[];
  lockedUntil?: number;
  version?: number;
}

export async function readGuard(userId: string): Promise<Guard | undefined> {
  const res = await db.send(new GetCommand({ TableName: TABLE, Key: keys.loginGuard(userId), ConsistentRead: true }));
  return res.Item as Guard | undefined;
}

export function assertNotLocked(guard: Guard | undefined, now = Date.now()): void {
  if (guard?.lockedUntil && guard.lockedUntil > now) {
    throw new TooManyAttempts(Math.ceil((guard.lockedUntil - now) / 1000));
  }
}

/**
 * The guard after one more failure at `now`: locked when it is the tenth within WINDOW_MS.
 * A lock in force stays as it is (a failure racing the one that locked neither ends nor
 * extends it).
 */
export function afterFailure(guard: Guard | undefined, now: number): { failedAt: number[]; lockedUntil?: number } {
  const failedAt = [...(Array.isArray(guard?.failedAt) ? guard.failedAt : []), now]
    .filter((t) => now - t < WINDOW_MS)
    .slice(-MAX_FAILURES);
  const held = guard?.lockedUntil && guard.lockedUntil > now ? guard.lockedUntil : undefined;
  const lockedUntil = held ?? (failedAt.length >= MAX_FAILURES ? now + LOCK_MS : undefined);
  return { failedAt, ...(lockedUntil ? { lockedUntil } : {}) };
}

/** Counts one failure; locks the account when it is the tenth within 15 minutes. */
export async function recordFailure(userId: string, guard: Guard | undefined): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const now = Date.now();
    const next = afterFailure(guard, now);
    const version = guard?.version;
    try {
      await db.send(new PutCommand({
        TableName: TABLE,
        Item: {
          ...keys.loginGuard(userId),
          ...next,
          version: (version ?? 0) + 1,
          // Gone once neither a failure nor a lock can matter any more.
          expiresAt: Math.floor((Math.max(now + WINDOW_MS, next.lockedUntil ?? 0)) / 1000) + 60,
        },
        ConditionExpression: version === undefined ? 'attribute_not_exists(version)' : 'version = :v',
        ...(version === undefined ? {} : { ExpressionAttributeValues: { ':v': version } }),
      }));
      return;
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
      guard = await readGuard(userId);
    }
  }
}
