// The login lock (contract section 2): 10 failed logins for one account within 15 minutes
// lock it for 15 minutes (429 with Retry-After). "Within 15 minutes" is any 15 minutes, not a
// window fixed at the first failure (which let 9 failures either side of its end through),
// so the item keeps the times of the account's recent failures. A successful login does not
// clear them: the contract counts failures, not failures since the last success.
//
// A check of a password is admitted before its verdict can be told, not counted after it:
// counting failures once they are known let any number of guesses sent at once be checked
// (each read the guard before the first failure was written; seen: 20 racing guesses all
// answered, the right one 200). So every check first appends its time to the list atomically
// (`admit`, beside the hash), and the answer holds every check committed before it: with 10
// failed or running checks within 15 minutes before it, it is refused (429) and takes its
// time out again. A right password takes its time out (`release`), a wrong one leaves it as
// the failure it is (`failed`), and sets the lock at the tenth. A check that never ends (a
// function that timed out) counts as a failure: the list errs toward locking. Times that
// have left the window are trimmed when a failure is counted.
// The times are a number set (`checks`), each a unique mark (its epoch ms x 1000 plus a random
// 0-999): added and removed by value, atomically, so racing checks never retry. (A list
// removed from by index made each removal conflict with every other under a burst of 20:
// some gave up and left their time behind as a failure.)
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { db, TABLE } from '../db/client';
import * as keys from '../keys';
import { InvalidCredentials, TooManyAttempts } from '../errors';
import { verifyPassword } from '../users/password';
import { allSettled } from '../settle';

export const MAX_FAILURES = 10;
export const WINDOW_MS = 15 * 60_000;
export const LOCK_MS = 15 * 60_000;

export interface Guard {
  /** The marks of the account's recent failed checks and of those still running (`markOf`). */
  checks?: Set<number>;
  /** Epoch ms of failures as guards kept them before `checks` (read until they leave the window). */
  failedAt?: number[];
  lockedUntil?: number;
}

/** A check of the account's password that was admitted: its mark in the set. */
export interface Attempt {
  userId: string;
  mark: number;
}

/** A check's mark: its time, made unique among racing checks (a collision, 1 in 1,000 within one ms, counts them once). */
const markOf = (now: number) => now * 1000 + Math.floor(Math.random() * 1000);
const timeOf = (mark: number) => Math.floor(mark / 1000);

export async function readGuard(userId: string): Promise<Guard | undefined> {
  const res = await db.send(new GetCommand({ TableName: TABLE, Key: keys.loginGuard(userId), ConsistentRead: true }));
  return res.Item as Guard | undefined;
}

/** The times of the checks within the window, oldest first. */
const recentOf = (guard: Guard | undefined, now: number) =>
  [...(Array.isArray(guard?.failedAt) ? guard.failedAt : []), ...[...(guard?.checks ?? [])].map(timeOf)]
    .filter((t) => typeof t === 'number' && now - t < WINDOW_MS)
    .sort((a, b) => a - b);

/**
 * Seconds until a check may run, given the guard as it was before it (0: now). A lock in force
 * waits for its end; 10 failed or running checks within 15 minutes wait until the oldest of the
 * newest ten has left the window (sooner when some of them turn out right).
 */
export function waitBefore(guard: Guard | undefined, now: number): number {
  if (guard?.lockedUntil && guard.lockedUntil > now) return Math.ceil((guard.lockedUntil - now) / 1000);
  const recent = recentOf(guard, now);
  if (recent.length < MAX_FAILURES) return 0;
  return Math.max(1, Math.ceil((recent[recent.length - MAX_FAILURES]! + WINDOW_MS - now) / 1000));
}

/**
 * The guard after a failure counted at `now` (its time already in the list): the times still
 * within 15 minutes, and the lock when they are 10 or more. A lock in force stays as it is (a
 * failure racing the one that locked neither ends nor extends it).
 */
export function afterFailure(guard: Guard | undefined, now: number): { failedAt: number[]; lockedUntil?: number } {
  const failedAt = recentOf(guard, now);
  const held = guard?.lockedUntil && guard.lockedUntil > now ? guard.lockedUntil : undefined;
  const lockedUntil = held ?? (failedAt.length >= MAX_FAILURES ? now + LOCK_MS : undefined);
  return { failedAt, ...(lockedUntil ? { lockedUntil } : {}) };
}

/**
 * Admits one check of the account's password, or refuses it with 429 TOO_MANY_ATTEMPTS: its
 * time is appended (one UpdateItem, no condition), and the answer holds every check committed
 * before it. Send it beside the hash: only the verdict waits for it.
 */
export async function admit(userId: string, now = Date.now()): Promise<Attempt> {
  const attempt = { userId, mark: markOf(now) };
  const res = await db.send(new UpdateCommand({
    TableName: TABLE,
    Key: keys.loginGuard(userId),
    UpdateExpression: 'ADD checks :mark SET expiresAt = :exp',
    ExpressionAttributeValues: { ':mark': new Set([attempt.mark]), ':exp': expiry(now + Math.max(WINDOW_MS, LOCK_MS)) },
    ReturnValues: 'ALL_NEW',
  }));
  const seen = res.Attributes as Guard;
  const before = new Set(seen.checks);
  before.delete(attempt.mark);
  const wait = waitBefore({ ...seen, checks: before }, now);
  if (wait > 0) {
    // Refused, not checked: it is no failure.
    await release(attempt);
    throw new TooManyAttempts(wait);
  }
  return attempt;
}

/** Takes an admitted check's mark out of the set (a right password, or a refusal): one UpdateItem, by value. */
export async function release(attempt: Attempt): Promise<void> {
  await db.send(new UpdateCommand({
    TableName: TABLE,
    Key: keys.loginGuard(attempt.userId),
    UpdateExpression: 'DELETE checks :mark',
    ExpressionAttributeValues: { ':mark': new Set([attempt.mark]) },
  }));
}

/**
 * Ends an admitted check that got no verdict on the password (its token refused: the session
 * ended, the account suspended or deleted; or the change failing after a right password): its
 * mark is released, so it counts neither as a failure nor as a running check, and `err` is
 * thrown on. A refused token never locks its account.
 */
export async function withdraw(admitted: Promise<Attempt>, err: unknown): Promise<never> {
  await admitted.then(release).catch(() => undefined);
  throw err;
}

/** Counts an admitted check as the failure it was; locks the account at the tenth within 15 minutes. */
export async function failed(attempt: Attempt, now = Date.now()): Promise<void> {
  const key = keys.loginGuard(attempt.userId);
  const seen = await readGuard(attempt.userId);
  const next = afterFailure(seen, now);
  if (next.lockedUntil && next.lockedUntil !== seen?.lockedUntil) {
    await conditional(new UpdateCommand({
      TableName: TABLE,
      Key: key,
      UpdateExpression: 'SET lockedUntil = :until, expiresAt = :exp',
      // Never shortens or moves a lock in force (a racing failure may have set it first).
      ConditionExpression: 'attribute_not_exists(lockedUntil) OR lockedUntil <= :now',
      ExpressionAttributeValues: { ':until': next.lockedUntil, ':now': now, ':exp': expiry(next.lockedUntil) },
    }));
  }
  // Marks that left the window go (by value: a racing check is not touched), and a list of the
  // earlier shape once none of its times is within it.
  const stale = [...(seen?.checks ?? [])].filter((m) => now - timeOf(m) >= WINDOW_MS);
  const oldList = seen?.failedAt !== undefined && recentOf({ failedAt: seen.failedAt }, now).length === 0;
  if (stale.length || oldList) {
    await db.send(new UpdateCommand({
      TableName: TABLE,
      Key: key,
      UpdateExpression: [oldList ? 'REMOVE failedAt' : '', stale.length ? 'DELETE checks :stale' : ''].join(' ').trim(),
      ...(stale.length ? { ExpressionAttributeValues: { ':stale': new Set(stale) } } : {}),
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
 * deletion of the account): exactly a login's checks. One scrypt, run beside the check's
 * admission (`admitted`: `admit`, sent with the caller's read), and the verdict once both are
 * in: a wrong password counted toward the lock (contract section 13) and a 401
 * INVALID_CREDENTIALS. A right one answers the attempt, for the caller to `release` beside its
 * change (a deletion need not: the set goes with the account's partition).
 */
export async function confirmPassword(user: { id: string; passwordHash: string }, password: string, admitted: Promise<Attempt>): Promise<Attempt> {
  const [valid, attempt] = await allSettled([verifyPassword(password, user.passwordHash), admitted]);
  if (valid) return attempt;
  await failed(attempt);
  throw new InvalidCredentials();
}
