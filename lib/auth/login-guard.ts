// The login lock: 10 failed logins for one account within 15 minutes lock it for 15
// minutes (429 with Retry-After). One item per account; failures count within a window
// that opens at the first failure. Updates are conditional on the window they read, so
// racing failures are all counted.
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { db, TABLE } from '../db/client';
import { keys } from '../keys';
import { TooManyAttempts } from '../errors';

export const MAX_FAILURES = 10;
export const WINDOW_MS = 15 * 60_000;
export const LOCK_MS = 15 * 60_000;

interface Guard {
  windowStart: number;
  failures: number;
  lockedUntil?: number;
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

/** Counts one failure; locks the account when it is the tenth of the window. */
export async function recordFailure(userId: string, guard: Guard | undefined): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const now = Date.now();
    const fresh = !guard || now - guard.windowStart >= WINDOW_MS;
    try {
      const res = await db.send(new UpdateCommand({
        TableName: TABLE,
        Key: keys.loginGuard(userId),
        UpdateExpression: fresh
          ? 'SET windowStart = :now, failures = :one, expiresAt = :exp REMOVE lockedUntil'
          : 'ADD failures :one SET expiresAt = :exp',
        ConditionExpression: fresh ? 'attribute_not_exists(PK) OR windowStart = :old' : 'windowStart = :old',
        ExpressionAttributeValues: {
          ...(fresh ? { ':now': now } : {}),
          ':one': 1,
          ':old': guard?.windowStart ?? -1,
          ':exp': Math.floor((now + WINDOW_MS + LOCK_MS) / 1000),
        },
        ReturnValues: 'ALL_NEW',
      }));
      const after = res.Attributes as Guard;
      if (after.failures >= MAX_FAILURES && !after.lockedUntil) {
        await db.send(new UpdateCommand({
          TableName: TABLE,
          Key: keys.loginGuard(userId),
          UpdateExpression: 'SET lockedUntil = :until, expiresAt = :exp',
          ExpressionAttributeValues: { ':until': now + LOCK_MS, ':exp': Math.floor((now + LOCK_MS) / 1000) + 60 },
        }));
      }
      return;
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
      guard = await readGuard(userId);
    }
  }
}

export async function clearGuard(userId: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: TABLE, Key: keys.loginGuard(userId) }));
}
