// The upload rate (contract section 12): a user issues at most UPLOADS_PER_HOUR uploads in
// any 60 minutes, else 429 TOO_MANY_ATTEMPTS with Retry-After. A sliding window, not one
// fixed at its first upload (which lets twice the rate through across its end), so the item
// keeps the ids of the user's recent uploads: each id is a ULID and carries its issue time.
//
// An upload is admitted before it is created, atomically: its id is added to the set in one
// UpdateItem that answers the set as it stands after it, so the answer holds every upload
// committed before this one, and with UPLOADS_PER_HOUR of them within the hour it is refused
// and its id taken out again. Racing requests never retry and cannot overshoot: of 20 sent
// at once with 59 in the window, the one whose add commits first sees 59 and is admitted,
// every later one sees 60 or more (a refused one's id may still be there when another reads
// the set: that refuses it too, never admits one too many). An upload that is admitted and
// then fails to be created takes its id out (`withdrawUpload`): the window counts issued
// uploads only. An Idempotency-Key replay answers the stored upload without running the
// handler (lib/http/idempotency.ts), so it is not counted again.
//
// Ids that left the window are trimmed by value after an admission (a racing add is never
// touched); the item expires an hour after its last upload (TTL).
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import * as keys from '../keys';
import { idTime } from '../ids';
import { EnvReader } from '../config';
import { TooManyAttempts } from '../errors';

export const UPLOAD_WINDOW_MS = 60 * 60_000;

/**
 * UPLOADS_PER_HOUR from the environment (default 60), by lib/config.ts's reader and rules (a
 * positive integer; anything else fails the function's start). Read here, not in
 * lib/config.ts: only this function uses it, and every byte of lib/config.ts is in every
 * function's bundle, whose budget has no room left (tests/deploy/bundle-size.test.ts).
 */
export function uploadsPerHour(env: NodeJS.ProcessEnv = process.env): number {
  const r = new EnvReader(env);
  const limit = r.number('UPLOADS_PER_HOUR', 60, { int: true, min: 0 });
  if (r.bad.length) throw new Error(`Invalid configuration: ${r.bad.join(', ')}`);
  return limit;
}
export const UPLOADS_PER_HOUR = uploadsPerHour();

/**
 * Seconds until one more upload may be issued, given the issue times of the others (0: now):
 * with `limit` or more within the window, until the oldest of the newest `limit` leaves it.
 */
export function uploadWait(issuedAt: number[], now: number, limit: number): number {
  const recent = issuedAt.filter((t) => now - t < UPLOAD_WINDOW_MS).sort((a, b) => a - b);
  if (recent.length < limit) return 0;
  return Math.max(1, Math.ceil((recent[recent.length - limit]! + UPLOAD_WINDOW_MS - now) / 1000));
}

/** Counts the upload `mediaId` (a new ULID) against its owner's window, or throws 429 TOO_MANY_ATTEMPTS. */
export async function admitUpload(userId: string, mediaId: string, now = Date.now(), limit = UPLOADS_PER_HOUR): Promise<void> {
  const res = await db.send(new UpdateCommand({
    TableName: TABLE,
    Key: keys.uploadRate(userId),
    UpdateExpression: 'ADD issued :id SET expiresAt = :exp',
    ExpressionAttributeValues: { ':id': new Set([mediaId]), ':exp': Math.floor((now + UPLOAD_WINDOW_MS) / 1000) + 60 },
    ReturnValues: 'ALL_NEW',
  }));
  const others = [...((res.Attributes?.issued as Set<string> | undefined) ?? [])].filter((id) => id !== mediaId);
  const wait = uploadWait(others.map(idTime), now, limit);
  if (wait > 0) {
    await withdrawUpload(userId, mediaId);
    throw new TooManyAttempts(wait, `Too many uploads: at most ${limit} in any 60 minutes. Try again later.`);
  }
  const stale = others.filter((id) => now - idTime(id) >= UPLOAD_WINDOW_MS);
  if (stale.length) await removeIds(userId, stale);
}

/** Takes an upload that was admitted but not issued (its creation failed) out of the window. */
export function withdrawUpload(userId: string, mediaId: string): Promise<void> {
  return removeIds(userId, [mediaId]);
}

async function removeIds(userId: string, ids: string[]): Promise<void> {
  await db.send(new UpdateCommand({
    TableName: TABLE,
    Key: keys.uploadRate(userId),
    UpdateExpression: 'DELETE issued :ids',
    ExpressionAttributeValues: { ':ids': new Set(ids) },
  }));
}
