// A tag's postsCount (contract section 19): the sum of its TAG_SHARDS counter items, each moved
// by the change stream once per counted entry (a post of a public account): the entry's INSERT
// adds one and puts a marker beside it, its REMOVE takes the marker away and subtracts one, in
// one transaction each, so a record delivered again changes nothing. The shard is the
// entry's, so a tag taking 1,000 posts a second spreads them like its entries. After each
// move the tag's directory item (search, lib/tags/search.ts) takes the new sum.
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import { ConditionFailed, transact } from '../db/transact';
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

/** Moves the entry's counter shard once for its INSERT (+1) or REMOVE (-1). */
async function count(change: Change): Promise<void> {
  const entry = (change.newImage ?? change.oldImage) as unknown as TagEntryItem;
  const add = change.event === 'INSERT';
  const marker = keys.tagCounted(entry.tag, entry.post);
  try {
    await transact([
      add
        ? { op: { Put: { TableName: TABLE, Item: { ...marker, type: 'TAG_COUNTED' }, ConditionExpression: 'attribute_not_exists(PK)' } } }
        : { op: { Delete: { TableName: TABLE, Key: marker, ConditionExpression: 'attribute_exists(PK)' } } },
      {
        op: {
          Update: {
            TableName: TABLE,
            Key: keys.tagCounter(entry.tag, shardOf(entry.post, TAG_SHARDS)),
            UpdateExpression: 'ADD #c :by',
            ExpressionAttributeNames: { '#c': 'count' },
            ExpressionAttributeValues: { ':by': add ? 1 : -1 },
          },
        },
      },
    ]);
  } catch (err) {
    // Counted already (a record delivered again): nothing to move.
    if (!(err instanceof ConditionFailed)) throw err;
  }
  await refreshDirectory(entry.tag);
}

export const tagCountReactions: Reaction[] = [{
  name: 'tag-count',
  matches: (c) => typeOf(c) === 'TAG_POST' && (c.event === 'INSERT' || c.event === 'REMOVE') && (c.newImage ?? c.oldImage)?.counted === true,
  run: count,
}];
