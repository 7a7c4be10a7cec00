// The most-followed accounts: GSI3 (KEYS_ONLY, users only) is sharded over POPULAR_SHARDS
// partitions sorted by followersCount; the top of each shard is read in parallel and merged.
//
// A ranking of suggestions takes them from one shared item instead (`POPULAR / TOP`, pattern
// 23b in docs/ARCHITECTURE.md): the merged top POPULAR_TOP.size, as the shards showed them at
// its `computedAt`. The item is read beside the caller's cached ranking (no round trip of its
// own, where the shards were 4 Queries in the sampling round), and an instance holds the list
// it last read or computed, so that a warm instance reads neither. A ranking that finds no
// list younger than POPULAR_TOP.maxAgeMs reads the shards and writes the item again, beside
// its own ranking's Put: the list a ranking uses is never older than that bound.
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import * as keys from '../keys';
import { compareIds } from '../ids';
import { INDEX, POPULAR_SHARDS } from '../keys';

export interface Popular {
  id: string;
  followersCount: number;
}

export const POPULAR_TOP = {
  /** Accounts the item keeps: the deepest ranking (limit 50 + SUGGEST_BOUNDS.slack 10). */
  size: 60,
  /** How old a list a ranking uses may be (its staleness bound); tests lower it. */
  maxAgeMs: 60_000,
};

/** The list this instance last read or computed. */
let held: { computedAt: number; top: Popular[] } | undefined;

/** Young enough for a ranking. A list dated more than a second ahead of this clock (another instance's clock, or a bad write) is not: it would outlive the bound. */
const fresh = (computedAt: number) => {
  const age = Date.now() - computedAt;
  return age >= -1000 && age < POPULAR_TOP.maxAgeMs;
};

/** The item's list, or undefined when it is not one this code wrote (then it is taken as absent). */
function parseTop(item: Record<string, unknown>): Popular[] | undefined {
  if (!Array.isArray(item.top) || !Number.isFinite(item.computedAt)) return undefined;
  const top: Popular[] = [];
  for (const entry of item.top) {
    const [id, count, ...rest] = typeof entry === 'string' ? entry.split('|') : [];
    if (!id || rest.length || !Number.isFinite(Number(count)) || count === '') return undefined;
    top.push({ id, followersCount: Number(count) });
  }
  return top;
}

/** Whether a list holds the n most-followed: n of them, or fewer when that was all there was. */
const covers = (top: Popular[], n: number) => top.length >= n || top.length < POPULAR_TOP.size;

/** Whether this instance holds a list young enough for a ranking (then the item is not read). */
export const holdsTop = () => !!held && fresh(held.computedAt);

/** The item as read beside the cached ranking (absent: never written, or removed by its TTL): held when younger than the bound and newer than the list held. */
export function takeTop(item: Record<string, unknown> | undefined): void {
  const computedAt = Number(item?.computedAt);
  if (!item || !fresh(computedAt) || (held && held.computedAt >= computedAt)) return;
  const top = parseTop(item);
  if (top) held = { computedAt, top };
}

/**
 * The n most-followed accounts, most followers first: from the list held while it is young
 * enough, else from the shards. `store` is set when the shards were read: it writes the item
 * again, and the caller sends it with its own writes (the answer waits for it).
 */
export async function topAccounts(n: number): Promise<{ top: Popular[]; store?: () => Promise<unknown> }> {
  if (holdsTop() && covers(held!.top, n)) return { top: held!.top.slice(0, n) };
  const computedAt = Date.now();
  const top = await mostFollowed(Math.max(n, POPULAR_TOP.size));
  held = { computedAt, top };
  const item = {
    ...keys.popularTop(),
    type: 'POPULAR_TOP',
    computedAt,
    // "id|followersCount", most followers first: 60 entries are about 2 KB.
    top: top.map((p) => `${p.id}|${p.followersCount}`),
    // The table's TTL removes an item no ranking has rewritten for a day (a quiet stage).
    expiresAt: Math.floor(computedAt / 1000) + 86_400,
  };
  return { top: top.slice(0, n), store: () => db.send(new PutCommand({ TableName: TABLE, Item: item })) };
}

export async function mostFollowed(n: number): Promise<Popular[]> {
  const shards = await Promise.all(Array.from({ length: POPULAR_SHARDS }, (_, shard) => db.send(new QueryCommand({
    TableName: TABLE,
    IndexName: INDEX.POPULAR,
    KeyConditionExpression: 'GSI3PK = :p',
    ExpressionAttributeValues: { ':p': keys.popularShard(shard) },
    ScanIndexForward: false,
    Limit: n,
  }))));
  return shards
    .flatMap((res) => res.Items ?? [])
    .map((item) => ({ id: String(item.PK).slice('USER#'.length), followersCount: Number(item.followersCount) }))
    .sort((a, b) => b.followersCount - a.followersCount || compareIds(a.id, b.id))
    .slice(0, n);
}

/**
 * A deleted account's id out of the shared list (the account's cleanup, at its end: the user
 * item is gone, so the shards no longer show it). The list is deleted whole when it names the
 * id; the next ranking reads the shards and writes it again.
 */
export async function forgetInTop(userId: string): Promise<void> {
  const item = (await db.send(new GetCommand({ TableName: TABLE, Key: keys.popularTop(), ConsistentRead: true }))).Item;
  const top = item ? parseTop(item) : undefined;
  if (item && (!top || top.some((p) => p.id === userId))) {
    await db.send(new DeleteCommand({ TableName: TABLE, Key: keys.popularTop() }));
  }
}
