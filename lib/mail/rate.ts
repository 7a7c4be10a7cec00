// How many e-mails of a kind an account may be sent within a window (contract section 16: 3
// password resets per hour, 5 verification resends per 24 hours). A sliding window kept as
// upload-rate.ts keeps its own: one item per account and kind holds the ids (ULIDs: each carries
// its time) of the e-mails admitted within the window. A send is admitted before it is made, in
// one UpdateItem adding its id and answering the set as it stands after it: of racing requests
// each sees every id committed before its own, so 20 at once cannot overshoot the limit; a
// refused one takes its id out again.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import * as keys from '../keys';
import { idTime } from '../ids';

export interface Rate {
  /** The e-mail kind counted (part of the item's key). */
  kind: string;
  limit: number;
  windowMs: number;
}

export const RESET_RATE: Rate = { kind: 'PASSWORD_RESET', limit: 3, windowMs: 60 * 60_000 };
export const RESEND_RATE: Rate = { kind: 'VERIFY_RESEND', limit: 5, windowMs: 24 * 60 * 60_000 };

/** Seconds until one more may be sent, given the times of the others within the window (0: now). */
export function rateWait(times: number[], now: number, rate: Pick<Rate, 'limit' | 'windowMs'>): number {
  const recent = times.filter((t) => now - t < rate.windowMs).sort((a, b) => a - b);
  if (recent.length < rate.limit) return 0;
  return Math.max(1, Math.ceil((recent[recent.length - rate.limit]! + rate.windowMs - now) / 1000));
}

/**
 * Counts the e-mail `id` (a ULID) against the account's window of `rate`: 0 when admitted, else
 * the seconds to wait (and it is not counted).
 */
export async function admitMail(userId: string, id: string, rate: Rate, now = Date.now()): Promise<number> {
  const key = keys.mailRate(userId, rate.kind);
  const res = await db.send(new UpdateCommand({
    TableName: TABLE,
    Key: key,
    UpdateExpression: 'ADD sent :id SET #type = :type, expiresAt = :exp',
    ExpressionAttributeNames: { '#type': 'type' },
    ExpressionAttributeValues: { ':id': new Set([id]), ':type': 'MAIL_RATE', ':exp': Math.floor((now + rate.windowMs) / 1000) + 60 },
    ReturnValues: 'ALL_NEW',
  }));
  // Every other id in the set counts, a racing one's too (which may yet be refused): this errs
  // toward refusing, never admits one too many.
  const others = [...((res.Attributes?.sent as Set<string> | undefined) ?? [])].filter((other) => other !== id);
  const wait = rateWait(others.map(idTime), now, rate);
  if (wait > 0) {
    await removeIds(key, [id]);
    return wait;
  }
  const stale = others.filter((other) => now - idTime(other) >= rate.windowMs);
  if (stale.length) await removeIds(key, stale);
  return 0;
}

async function removeIds(key: { PK: string; SK: string }, ids: string[]): Promise<void> {
  await db.send(new UpdateCommand({ TableName: TABLE, Key: key, UpdateExpression: 'DELETE sent :ids', ExpressionAttributeValues: { ':ids': new Set(ids) } }));
}
