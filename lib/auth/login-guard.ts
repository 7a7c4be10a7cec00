// The login lock (contract section 3): 10 failed checks of one account's password from one
// source address within 15 minutes lock that account for that address for 15 minutes (429 with
// Retry-After); 100 failed checks of it from all addresses together within 15 minutes lock it
// for everyone. So a stranger who knows a username can no longer keep its owner out: from one
// address they lock only themselves, and the lock for everyone needs a hundred guesses from ten
// addresses or more. "Within 15 minutes" is any 15 minutes, not a window fixed at the first
// failure (which let 9 failures either side of its end through), so each guard keeps the times
// of its recent checks. A successful login does not clear them: the contract counts failures,
// not failures since the last success.
//
// One guard item per subject (SK LOGIN_GUARD) keeps both counts: the marks of all addresses
// (`checks`, `lockedUntil`) and, per address, its own (`checks@<address>`,
// `lockedUntil@<address>`), so a check adds and removes its mark in both with one write, as a
// check did when there was one count. The subject is the account, in its own partition (its
// cleanup sweeps the guard); a login naming no account has a subject too, its identifier's
// (keys.unknownLoginGuard), so that an unknown identifier is locked exactly as a known one is
// and the lock tells nothing of which exist. The address is API Gateway's connection address,
// never a header a client can write; an IPv6 address counts by its /64, which one client holds
// whole (addressOf). The item stays small: failures past the lock for everyone are refused,
// not counted, and each failure trims the marks and locks that have left the window.
//
// A check of a password is admitted before its verdict can be told, not counted after it:
// counting failures once they are known let any number of guesses sent at once be checked
// (each read the guard before the first failure was written; seen: 20 racing guesses all
// answered, the right one 200). So every check first adds its mark atomically (`admit`,
// beside the hash), and the answer holds every check committed before it: with a lock in
// force, or as many failed or running checks within 15 minutes as the limit (its address's,
// or all addresses') before it, it is refused (429) and takes its mark out again. A right
// password takes its mark out (`release`), a wrong one leaves it as the failure it is
// (`failed`), and sets a lock at its limit. A check that never ends (a function that timed out) counts as a
// failure: the guards err toward locking. Marks that have left the window are trimmed when a
// failure is counted.
// The marks are a number set (`checks`), each unique (its epoch ms x 1000 plus a random
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

/** Failed or running checks within the window that lock the subject for one address. */
export const MAX_FAILURES = 10;
/** Failed or running checks within the window, from all addresses together, that lock it for everyone. */
export const MAX_FAILURES_ALL = 100;
export const WINDOW_MS = 15 * 60_000;
export const LOCK_MS = 15 * 60_000;

export interface Guard {
  /** The marks of the subject's recent failed checks and of those still running (`markOf`). */
  checks?: Set<number>;
  /** Epoch ms of failures as guards kept them before `checks` (read until they leave the window). */
  failedAt?: number[];
  lockedUntil?: number;
}

/** Whose password a check is of: an account (its id), or an identifier no account holds (its claim). */
export type Subject = { userId: string } | { claim: { PK: string } };

/** A check of a subject's password that was admitted: its mark, in the subject's guard, for all addresses and for its own. */
export interface Attempt {
  key: { PK: string; SK: string };
  address: string;
  mark: number;
}

/**
 * The source address a guard is kept for: the connection's address as API Gateway gives it;
 * an IPv6 address by its first four groups (its /64: one client, one home or one phone holds a
 * whole /64, and would otherwise have 2^64 addresses to guess from). Lower case, expanded.
 */
export function addressOf(sourceIp: string | undefined): string {
  const ip = (sourceIp ?? '').trim().toLowerCase();
  if (!ip.includes(':')) return ip || 'unknown';
  // An IPv4 address written as IPv6 (::ffff:1.2.3.4) is that IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (mapped) return mapped[1]!;
  const [head, tail = ''] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') && tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => (g.replace(/^0+(?=.)/, '') || '0')).join(':')}::/64`;
}

const guardKey = (subject: Subject) => keys.loginGuard('userId' in subject ? keys.user(subject.userId).PK : keys.unknownLoginGuard(subject.claim));

// The item's attributes of one address: its marks and its lock (names through ExpressionAttributeNames).
const CHECKS_FROM = 'checks@';
const LOCKED_FROM = 'lockedUntil@';

/** The guard of one address, as the item holds it. */
const fromAddress = (item: Record<string, unknown> | undefined, address: string): Guard => ({
  checks: item?.[`${CHECKS_FROM}${address}`] as Set<number> | undefined,
  lockedUntil: item?.[`${LOCKED_FROM}${address}`] as number | undefined,
});

/** The guard of all addresses together, as the item holds it (its marks, and a guard's of the earlier shape). */
const allAddresses = (item: Record<string, unknown> | undefined): Guard => ({
  checks: item?.checks as Set<number> | undefined,
  failedAt: item?.failedAt as number[] | undefined,
  lockedUntil: item?.lockedUntil as number | undefined,
});

const without = (guard: Guard, mark: number): Guard => {
  const checks = new Set(guard.checks);
  checks.delete(mark);
  return { ...guard, checks };
};

/** A check's mark: its time, made unique among racing checks (a collision, 1 in 1,000 within one ms, counts them once). */
const markOf = (now: number) => now * 1000 + Math.floor(Math.random() * 1000);
const timeOf = (mark: number) => Math.floor(mark / 1000);

async function readGuard(key: { PK: string; SK: string }): Promise<Record<string, unknown> | undefined> {
  const res = await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }));
  return res.Item;
}

/** The times of the checks within the window, oldest first. */
const recentOf = (guard: Guard | undefined, now: number) =>
  [...(Array.isArray(guard?.failedAt) ? guard.failedAt : []), ...[...(guard?.checks ?? [])].map(timeOf)]
    .filter((t) => typeof t === 'number' && now - t < WINDOW_MS)
    .sort((a, b) => a - b);

/**
 * Seconds until a check may run, given the guard as it was before it (0: now). A lock in force
 * waits for its end; `max` failed or running checks within 15 minutes wait until the oldest of
 * the newest `max` has left the window (sooner when some of them turn out right).
 */
export function waitBefore(guard: Guard | undefined, now: number, max = MAX_FAILURES): number {
  if (guard?.lockedUntil && guard.lockedUntil > now) return Math.ceil((guard.lockedUntil - now) / 1000);
  const recent = recentOf(guard, now);
  if (recent.length < max) return 0;
  return Math.max(1, Math.ceil((recent[recent.length - max]! + WINDOW_MS - now) / 1000));
}

/**
 * The guard after a failure counted at `now` (its time already in the list): the times still
 * within 15 minutes, and the lock when they are `max` or more. A lock in force stays as it is
 * (a failure racing the one that locked neither ends nor extends it).
 */
export function afterFailure(guard: Guard | undefined, now: number, max = MAX_FAILURES): { failedAt: number[]; lockedUntil?: number } {
  const failedAt = recentOf(guard, now);
  const held = guard?.lockedUntil && guard.lockedUntil > now ? guard.lockedUntil : undefined;
  const lockedUntil = held ?? (failedAt.length >= max ? now + LOCK_MS : undefined);
  return { failedAt, ...(lockedUntil ? { lockedUntil } : {}) };
}

/**
 * Admits one check of the subject's password from `sourceIp`, or refuses it with 429
 * TOO_MANY_ATTEMPTS: its mark is added to the marks of all addresses and to its address's
 * (one UpdateItem, no condition), and the answer holds every check committed before it.
 * Send it beside the hash: only the verdict waits for it.
 */
export async function admit(subject: Subject, sourceIp: string | undefined, now = Date.now()): Promise<Attempt> {
  const attempt: Attempt = { key: guardKey(subject), address: addressOf(sourceIp), mark: markOf(now) };
  const res = await db.send(new UpdateCommand({
    TableName: TABLE,
    Key: attempt.key,
    UpdateExpression: 'ADD checks :mark, #from :mark SET expiresAt = :exp',
    ExpressionAttributeNames: { '#from': `${CHECKS_FROM}${attempt.address}` },
    ExpressionAttributeValues: { ':mark': new Set([attempt.mark]), ':exp': expiry(now + Math.max(WINDOW_MS, LOCK_MS)) },
    ReturnValues: 'ALL_NEW',
  }));
  const seen = res.Attributes;
  const wait = Math.max(
    waitBefore(without(fromAddress(seen, attempt.address), attempt.mark), now, MAX_FAILURES),
    waitBefore(without(allAddresses(seen), attempt.mark), now, MAX_FAILURES_ALL),
  );
  if (wait > 0) {
    // Refused, not checked: it is no failure.
    await release(attempt);
    throw new TooManyAttempts(wait);
  }
  return attempt;
}

/** Takes an admitted check's mark out of the guard (a right password, or a refusal): one UpdateItem, by value. */
export async function release(attempt: Attempt): Promise<void> {
  await db.send(new UpdateCommand({
    TableName: TABLE,
    Key: attempt.key,
    UpdateExpression: 'DELETE checks :mark, #from :mark',
    ExpressionAttributeNames: { '#from': `${CHECKS_FROM}${attempt.address}` },
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

/**
 * Counts an admitted check as the failure it was: locks its address at the tenth failure from
 * it within 15 minutes, and every address at the hundredth from all of them.
 */
export async function failed(attempt: Attempt, now = Date.now()): Promise<void> {
  const seen = await readGuard(attempt.key);
  const lockFrom = `${LOCKED_FROM}${attempt.address}`;
  const locks = [
    { attr: lockFrom, guard: fromAddress(seen, attempt.address), max: MAX_FAILURES },
    { attr: 'lockedUntil', guard: allAddresses(seen), max: MAX_FAILURES_ALL },
  ];
  await allSettled(locks.map(async ({ attr, guard, max }) => {
    const next = afterFailure(guard, now, max);
    if (!next.lockedUntil || next.lockedUntil === guard.lockedUntil) return;
    await conditional(new UpdateCommand({
      TableName: TABLE,
      Key: attempt.key,
      UpdateExpression: 'SET #lock = :until, expiresAt = :exp',
      // Never shortens or moves a lock in force (a racing failure may have set it first).
      ConditionExpression: 'attribute_not_exists(#lock) OR #lock <= :now',
      ExpressionAttributeNames: { '#lock': attr },
      ExpressionAttributeValues: { ':until': next.lockedUntil, ':now': now, ':exp': expiry(next.lockedUntil) },
    }));
  }));
  // Marks that left the window go, from every address's set (by value: a racing check is not
  // touched; an emptied set is no attribute), locks of addresses that ended, and a list of the
  // earlier shape once none of its times is within it. So the item holds at most the marks of
  // one window: at most 100 failures, as the lock for everyone refuses the rest.
  const names: Record<string, string> = {};
  const values: Record<string, Set<number>> = {};
  const removes: string[] = [];
  const deletes: string[] = [];
  for (const [attr, value] of Object.entries(seen ?? {})) {
    const n = `#a${Object.keys(names).length}`;
    if ((attr === 'checks' || attr.startsWith(CHECKS_FROM)) && value instanceof Set) {
      const stale = [...(value as Set<number>)].filter((m) => now - timeOf(m) >= WINDOW_MS);
      if (!stale.length) continue;
      names[n] = attr;
      values[`:${n.slice(1)}`] = new Set(stale);
      deletes.push(`${n} :${n.slice(1)}`);
    } else if (attr.startsWith(LOCKED_FROM) && typeof value === 'number' && value <= now && attr !== lockFrom) {
      names[n] = attr;
      removes.push(n);
    }
  }
  if (seen?.failedAt !== undefined && recentOf({ failedAt: seen.failedAt as number[] }, now).length === 0) {
    names['#old'] = 'failedAt';
    removes.push('#old');
  }
  if (!removes.length && !deletes.length) return;
  await db.send(new UpdateCommand({
    TableName: TABLE,
    Key: attempt.key,
    UpdateExpression: [removes.length ? `REMOVE ${removes.join(', ')}` : '', deletes.length ? `DELETE ${deletes.join(', ')}` : ''].join(' ').trim(),
    ExpressionAttributeNames: names,
    ...(deletes.length ? { ExpressionAttributeValues: values } : {}),
  }));
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
 * change (a deletion need not: the guards go with the account's partition).
 */
export async function confirmPassword(user: { id: string; passwordHash: string }, password: string, admitted: Promise<Attempt>): Promise<Attempt> {
  const [valid, attempt] = await allSettled([verifyPassword(password, user.passwordHash), admitted]);
  if (valid) return attempt;
  await failed(attempt);
  throw new InvalidCredentials();
}

/**
 * A completed two-factor sign-in (contract section 17: only it clears failed checks, a right
 * password alone does not): the marks of its address, its own among them (no release needed),
 * leave both counts and its address's lock ends. Other addresses' marks stay.
 */
export async function forgiveAddress(attempt: Attempt): Promise<void> {
  const marks = new Set([...(fromAddress(await readGuard(attempt.key), attempt.address).checks ?? []), attempt.mark]);
  await db.send(new UpdateCommand({
    TableName: TABLE,
    Key: attempt.key,
    UpdateExpression: 'REMOVE #lock DELETE checks :marks, #from :marks',
    ExpressionAttributeNames: { '#lock': `${LOCKED_FROM}${attempt.address}`, '#from': `${CHECKS_FROM}${attempt.address}` },
    ExpressionAttributeValues: { ':marks': marks },
  }));
}
