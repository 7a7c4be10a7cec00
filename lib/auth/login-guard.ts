// The login lock (contract section 2): 10 failed logins for one account within 15 minutes
// lock it for 15 minutes (429 with Retry-After). "Within 15 minutes" is any 15 minutes, not a
// window fixed at the first failure (which let 9 failures either side of its end through),
// so the item keeps the times of the account's recent failures. A successful login does not
// clear them: the contract counts failures, not failures since the last success.
// Racing failures are all counted: each appends its time atomically (no condition, no
// retry), and the answer holds every failure committed before it, so the last of ten racing
// failures sees all ten and sets the lock. The list is trimmed back to the last 10 times
// when no other failure wrote in between (otherwise a later failure trims it).
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { db, TABLE } from '../db/client';
import * as keys from '../keys';
import { InvalidCredentials, TooManyAttempts } from '../errors';
import { verifyPassword } from './password';

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
export async function recordFailure(userId: string): Promise<void> {
  const now = Date.now();
  const key = keys.loginGuard(userId);
  const res = await db.send(new UpdateCommand({
    TableName: TABLE,
    Key: key,
    UpdateExpression: 'SET failedAt = list_append(if_not_exists(failedAt, :none), :now), expiresAt = :exp ADD version :one',
    ExpressionAttributeValues: { ':none': [], ':now': [now], ':one': 1, ':exp': expiry(now + Math.max(WINDOW_MS, LOCK_MS)) },
    ReturnValues: 'ALL_NEW',
  }));
  const seen = res.Attributes as Guard & { failedAt: number[]; version: number };
  // The answer ends with this failure; everything before it was committed earlier.
  const next = afterFailure({ ...seen, failedAt: seen.failedAt.slice(0, -1) }, now);
  if (next.lockedUntil && next.lockedUntil !== seen.lockedUntil) {
    await conditional(new UpdateCommand({
      TableName: TABLE,
      Key: key,
      UpdateExpression: 'SET lockedUntil = :until, expiresAt = :exp',
      // Never shortens or moves a lock in force (a racing failure may have set it first).
      ConditionExpression: 'attribute_not_exists(lockedUntil) OR lockedUntil <= :now',
      ExpressionAttributeValues: { ':until': next.lockedUntil, ':now': now, ':exp': expiry(next.lockedUntil) },
    }));
  }
  if (seen.failedAt.length > MAX_FAILURES) {
    await conditional(new UpdateCommand({
      TableName: TABLE,
      Key: key,
      UpdateExpression: 'SET failedAt = :kept',
      ConditionExpression: 'version = :v',
      ExpressionAttributeValues: { ':kept': next.failedAt, ':v': seen.version },
    }));
  }
}

const expiry = (ms: number) => Math.floor(ms / 1000) + 60;

/** A write that may lose to a racing one, which then did what it would have done. */
async function conditional(command: UpdateCommand): Promise<void> {
  try {
    await db.send(command);
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
  }
}

/**
 * The caller's own password, asked again before a change that needs it (a password change, the
 * deletion of the account): exactly a login's checks, the lock first, then one scrypt, a wrong
 * password counted toward the lock (contract section 13), else a 401 INVALID_CREDENTIALS.
 * `guard` is the caller's guard, read beside the caller's user item.
 */
export async function confirmPassword(user: { id: string; passwordHash: string }, password: string, guard: Guard | undefined): Promise<void> {
  assertNotLocked(guard);
  if (await verifyPassword(password, user.passwordHash)) return;
  await recordFailure(user.id);
  throw new InvalidCredentials();
}
