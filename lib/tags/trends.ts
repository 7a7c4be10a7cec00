// Trending tags (GET /trends/tags, contract section 19): the tags that at least 3 distinct
// accounts used in the last 24 hours, ranked by that number minus the distinct accounts of the
// 24 hours before (ties: more posts first, then name), at most 10. Never read from posts:
//
// - counting (the stream, on a post's INSERT): per (tag, account) one item holds the hour of
//   the account's latest use (keys.trendUse); per (hour, tag) a counter holds how many accounts'
//   latest use fell in that hour (keys.trendCounter). A new use in a later hour moves the
//   account from its old hour's counter to the new one, in one transaction conditional on the
//   use item as read, so a record delivered again (its hour already there) changes nothing and
//   an account counts once however often it uses the tag. Only posts of public accounts that
//   are neither suspended nor deleted count: an account that goes private or is suspended is
//   taken out (dropUse), and put back from its posts of the last 48 hours when it goes public
//   or is unsuspended, by its recount job (lib/tags/recount.ts). Both items expire after
//   TREND_KEEP_HOURS.
// - ranking: the 48 hours' counter partitions are read (one Query each, in parallel) at most
//   every TRENDS_INTERVAL_SECONDS, by the first GET after the last ranking went stale, and kept
//   as one item (keys.trends) that every other GET reads.
//
// Hours are UTC hours (`YYYY-MM-DDTHH`): "the last 24 hours" is the current hour and the 23
// before it. The day before is counted by latest use: an account that used the tag on both
// days counts in the last 24 hours only (docs/ARCHITECTURE.md, "Trending").
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import { batchGet, itemKey } from '../db/batch';
import { ConditionFailed, transact, type TxItem } from '../db/transact';
import * as keys from '../keys';
import { typeOf, type Change, type Reaction } from '../events/changes';
import { tagPostsCount } from './counts';
import { isPublicAccount } from './entries';

export const TREND_MIN_AUTHORS = 3;
export const TREND_LIMIT = 10;
const HOUR_MS = 3_600_000;
/** Use and counter items are kept this long (two days and a margin), then expire. */
export const TREND_KEEP_HOURS = 50;

export const hourOf = (ms: number): string => new Date(ms).toISOString().slice(0, 13);
const hourStart = (hour: string): number => Date.parse(`${hour}:00:00.000Z`);
const expiry = (hour: string) => Math.floor((hourStart(hour) + TREND_KEEP_HOURS * HOUR_MS) / 1000);

export interface TrendCandidate {
  name: string;
  /** Distinct accounts of the last 24 hours. */
  authors: number;
  /** Distinct accounts of the 24 hours before. */
  before: number;
  postsCount: number;
}

/** The ranking (pure): at least 3 authors; by authors minus before, then postsCount, then name; at most 10. */
export function rankTrends(candidates: TrendCandidate[], limit = TREND_LIMIT): { name: string; postsCount: number; authors: number }[] {
  return candidates
    .filter((c) => c.authors >= TREND_MIN_AUTHORS)
    .sort((a, b) => (b.authors - b.before) - (a.authors - a.before) || b.postsCount - a.postsCount || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, limit)
    .map((c) => ({ name: c.name, postsCount: c.postsCount, authors: c.authors }));
}

/** Records that `userId` used `tag` in `hour` (idempotent). */
export async function recordUse(tag: string, userId: string, hour: string, attempt = 1): Promise<void> {
  const use = keys.trendUse(tag, userId);
  const held = (await db.send(new GetCommand({ TableName: TABLE, Key: use, ConsistentRead: true }))).Item as { hour?: string } | undefined;
  if (held?.hour && held.hour >= hour) return;
  const move = (h: string, by: 1 | -1): TxItem => ({
    op: {
      Update: {
        TableName: TABLE,
        Key: keys.trendCounter(h, tag),
        UpdateExpression: 'ADD authors :by SET #t = :type, expiresAt = :exp',
        ExpressionAttributeNames: { '#t': 'type' },
        ExpressionAttributeValues: { ':by': by, ':type': 'TREND_HOUR', ':exp': expiry(h) },
      },
    },
  });
  try {
    await transact([
      {
        op: {
          Put: {
            TableName: TABLE,
            Item: { ...use, type: 'TREND_USE', hour, expiresAt: expiry(hour) },
            ConditionExpression: held ? '#h = :old' : 'attribute_not_exists(PK)',
            ...(held ? { ExpressionAttributeNames: { '#h': 'hour' }, ExpressionAttributeValues: { ':old': held.hour } } : {}),
          },
        },
      },
      move(hour, 1),
      // The old hour's counter is expired or about to be when it lies past the window.
      ...(held?.hour && hourStart(hour) - hourStart(held.hour) < 48 * HOUR_MS ? [move(held.hour, -1)] : []),
    ]);
  } catch (err) {
    // Another use of the same account and tag moved it meanwhile: read again.
    if (!(err instanceof ConditionFailed) || attempt >= 5) throw err;
    await recordUse(tag, userId, hour, attempt + 1);
  }
}

/**
 * Takes `userId` out of `tag`'s trending counts (its account no longer counts: lib/tags/
 * recount.ts): the use item goes, and its hour's counter loses one, in one transaction
 * conditional on the hour read (idempotent: a second call finds no use item).
 */
export async function dropUse(tag: string, userId: string, attempt = 1): Promise<void> {
  const use = keys.trendUse(tag, userId);
  const held = (await db.send(new GetCommand({ TableName: TABLE, Key: use, ConsistentRead: true }))).Item as { hour?: string } | undefined;
  if (!held?.hour) return;
  try {
    await transact([
      { op: { Delete: { TableName: TABLE, Key: use, ConditionExpression: '#h = :old', ExpressionAttributeNames: { '#h': 'hour' }, ExpressionAttributeValues: { ':old': held.hour } } } },
      {
        op: {
          Update: {
            TableName: TABLE, Key: keys.trendCounter(held.hour, tag), UpdateExpression: 'ADD authors :by',
            // A counter already expired is not brought back.
            ConditionExpression: 'attribute_exists(PK)', ExpressionAttributeValues: { ':by': -1 },
          },
        },
      },
    ]);
  } catch (err) {
    if (!(err instanceof ConditionFailed) || attempt >= 5) throw err;
    // The counter is gone (expired): the use item alone goes.
    if (err.index === 1) {
      await db.send(new DeleteCommand({ TableName: TABLE, Key: use, ConditionExpression: '#h = :old', ExpressionAttributeNames: { '#h': 'hour' }, ExpressionAttributeValues: { ':old': held.hour } })).catch(() => undefined);
      return;
    }
    await dropUse(tag, userId, attempt + 1);
  }
}

async function countPost(change: Change): Promise<void> {
  const post = change.newImage as { author: string; hashtags?: string[]; createdAt: string };
  if (!post.hashtags?.length) return;
  const found = await batchGet<{ isPrivate?: boolean }>([keys.user(post.author), keys.gone(post.author)]);
  const user = found.get(itemKey(keys.user(post.author)));
  if (!user || !isPublicAccount(user) || found.has(itemKey(keys.gone(post.author)))) return;
  const hour = hourOf(Date.parse(post.createdAt));
  for (const tag of post.hashtags) await recordUse(tag, post.author, hour);
}

export const trendReactions: Reaction[] = [{
  name: 'tag-trends',
  matches: (c) => c.event === 'INSERT' && typeOf(c) === 'POST' && Array.isArray(c.newImage?.hashtags) && (c.newImage!.hashtags as unknown[]).length > 0,
  run: countPost,
}];

/** Each tag's distinct accounts of the last 24 hours and of the 24 before, from the 48 hours' counters. */
async function windowCounts(now: number): Promise<Map<string, { authors: number; before: number }>> {
  const out = new Map<string, { authors: number; before: number }>();
  await Promise.all(Array.from({ length: 48 }, async (_, back) => {
    const pk = keys.trendHour(hourOf(now - back * HOUR_MS));
    let start: Record<string, unknown> | undefined;
    do {
      const res = await db.send(new QueryCommand({
        TableName: TABLE, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': pk },
        ProjectionExpression: 'SK, authors', ExclusiveStartKey: start,
      }));
      for (const i of res.Items ?? []) {
        const c = out.get(String(i.SK)) ?? { authors: 0, before: 0 };
        if (back < 24) c.authors += Number(i.authors ?? 0);
        else c.before += Number(i.authors ?? 0);
        out.set(String(i.SK), c);
      }
      start = res.LastEvaluatedKey;
    } while (start);
  }));
  return out;
}

export type Trend = ReturnType<typeof rankTrends>[number];

/** Ranks the tags now: the counters, and the postsCount of the tags that can still place. */
export async function computeTrends(now: number): Promise<Trend[]> {
  const counts = await windowCounts(now);
  const eligible = [...counts].filter(([, c]) => c.authors >= TREND_MIN_AUTHORS)
    .map(([name, c]) => ({ name, ...c, score: c.authors - c.before }))
    .sort((a, b) => b.score - a.score);
  // postsCount only breaks ties: read it for the tags scoring at least the 10th's score.
  const floor = eligible[Math.min(TREND_LIMIT, eligible.length) - 1]?.score ?? 0;
  const placing = eligible.filter((c) => c.score >= floor).slice(0, 100);
  const withCounts = await Promise.all(placing.map(async (c) => ({ ...c, postsCount: await tagPostsCount(c.name, false) })));
  return rankTrends(withCounts);
}

/** The trending tags as last ranked; ranked again first when that is `intervalSeconds` old. */
export async function trendingTags(intervalSeconds: number, now = Date.now()): Promise<Trend[]> {
  const held = (await db.send(new GetCommand({ TableName: TABLE, Key: keys.trends() }))).Item as { tags: Trend[]; computedAt: number } | undefined;
  if (held && now - held.computedAt < intervalSeconds * 1000) return held.tags;
  const tags = await computeTrends(now);
  try {
    // One writer per refresh: a concurrent one that got there first is kept.
    await db.send(new PutCommand({
      TableName: TABLE,
      Item: { ...keys.trends(), type: 'TRENDS', tags, computedAt: now },
      ConditionExpression: held ? 'computedAt = :was' : 'attribute_not_exists(PK)',
      ...(held ? { ExpressionAttributeValues: { ':was': held.computedAt } } : {}),
    }));
  } catch (err) {
    if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
  }
  return tags;
}
