// A tag's postsCount (contract section 19): the sum of its TAG_SHARDS counter items, each moved
// by the change stream once per counted entry (a post of an account that is public and neither
// suspended nor deleted): the entry's INSERT adds one and puts a marker beside it, in one
// transaction that also checks the author's user item for that state; its REMOVE takes the
// marker away and subtracts one, so a record delivered again changes nothing. A change of the
// account's state moves its entries by a job (lib/tags/recount.ts). The shard is the
// entry's, so a tag taking 1,000 posts a second spreads them like its entries. After each
// move the tag's directory item (search, lib/tags/search.ts) takes the new sum.
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import { ConditionFailed, transact, type TxItem } from '../db/transact';
import * as keys from '../keys';
import { shardOf, TAG_SHARDS } from '../keys';
import { typeOf, type Change, type Reaction } from '../events/changes';
import type { TagEntryItem } from './entries';

/** The tag's postsCount: one Query of its counter shards. */
export async function tagPostsCount(tag: string, consistent = true): Promise<number> {
  const res = await db.send(new QueryCommand({
    TableName: TABLE,
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.tagCounters(tag) },
    ProjectionExpression: '#c',
    ExpressionAttributeNames: { '#c': 'count' },
    ConsistentRead: consistent,
  }));
  return Math.max(0, (res.Items ?? []).reduce((sum, i) => sum + Number(i.count ?? 0), 0));
}

// Directory refreshes of one tag in this instance run one after another; a refresh not yet
// started serves every counter move made before it starts (it reads the counters then), so a
// hot tag's burst of moves becomes a few directory writes.
const waiting = new Map<string, Promise<void>>();
const latest = new Map<string, Promise<void>>();

async function writeDirectory(tag: string): Promise<void> {
  const count = await tagPostsCount(tag);
  await db.send(new UpdateCommand({
    TableName: TABLE,
    Key: keys.tagDirectory(tag),
    UpdateExpression: 'SET #t = :type, tag = :tag, postsCount = :n',
    ExpressionAttributeNames: { '#t': 'type' },
    ExpressionAttributeValues: { ':type': 'TAG', ':tag': tag, ':n': count },
  }));
}

/** Brings the tag's directory item up to its counters as they are after this call. */
export function refreshDirectory(tag: string): Promise<void> {
  const queued = waiting.get(tag);
  if (queued) return queued;
  const run = (latest.get(tag) ?? Promise.resolve()).catch(() => undefined).then(() => {
    waiting.delete(tag);
    return writeDirectory(tag);
  });
  waiting.set(tag, run);
  latest.set(tag, run);
  run.finally(() => { if (latest.get(tag) === run) latest.delete(tag); }).catch(() => undefined);
  return run;
}

/** The user item's condition: its posts count (public, neither suspended nor deleted). */
const COUNTABLE = 'attribute_exists(PK) AND (attribute_not_exists(isPrivate) OR isPrivate = :no) AND attribute_not_exists(suspendedAt) AND attribute_not_exists(deletedAt)';
const UNCOUNTABLE = 'attribute_not_exists(PK) OR isPrivate = :yes OR attribute_exists(suspendedAt) OR attribute_exists(deletedAt)';

/** A transaction item that holds only while `userId`'s posts count (or, `counts` false, while they do not). */
export const accountCheck = (userId: string, counts = true): TxItem => ({
  op: {
    ConditionCheck: {
      TableName: TABLE,
      Key: keys.user(userId),
      ConditionExpression: counts ? COUNTABLE : UNCOUNTABLE,
      ExpressionAttributeValues: counts ? { ':no': false } : { ':yes': true },
    },
  },
});

const counter = (tag: string, postId: string, by: 1 | -1): TxItem => ({
  op: {
    Update: {
      TableName: TABLE,
      Key: keys.tagCounter(tag, shardOf(postId, TAG_SHARDS)),
      UpdateExpression: 'ADD #c :by',
      ExpressionAttributeNames: { '#c': 'count' },
      ExpressionAttributeValues: { ':by': by },
    },
  },
});

/**
 * Counts (`add`) or uncounts the post in the tag, once: the marker's condition makes a second
 * move of the same direction a no-op. `checks`: what must also hold (the account's state, the
 * entry). False when nothing moved.
 */
export async function moveCount(tag: string, postId: string, add: boolean, checks: TxItem[]): Promise<boolean> {
  const marker = keys.tagCounted(tag, postId);
  try {
    await transact([
      add
        ? { op: { Put: { TableName: TABLE, Item: { ...marker, type: 'TAG_COUNTED' }, ConditionExpression: 'attribute_not_exists(PK)' } } }
        : { op: { Delete: { TableName: TABLE, Key: marker, ConditionExpression: 'attribute_exists(PK)' } } },
      counter(tag, postId, add ? 1 : -1),
      ...checks,
    ]);
    return true;
  } catch (err) {
    // Moved already (a record or step delivered again), or the account's state is not the one moved toward.
    if (!(err instanceof ConditionFailed)) throw err;
    return false;
  }
}

/**
 * Moves the entry's counter shard once for its INSERT (+1, while its author's posts count) or
 * REMOVE (-1, when it was counted).
 */
async function count(change: Change): Promise<void> {
  const entry = (change.newImage ?? change.oldImage) as unknown as TagEntryItem;
  const add = change.event === 'INSERT';
  await moveCount(entry.tag, entry.post, add, add ? [accountCheck(entry.author)] : []);
  await refreshDirectory(entry.tag);
}

export const tagCountReactions: Reaction[] = [{
  name: 'tag-count',
  matches: (c) => typeOf(c) === 'TAG_POST' && (c.event === 'INSERT' || c.event === 'REMOVE'),
  run: count,
}];
