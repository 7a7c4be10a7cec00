// Contract section 6: to a user on either side of a block, the other does not exist. The
// lists and feeds leave such users out where they read them; this is the last guard for the
// ids embedded in answers (a User's followers/following, a Post's or Comment's likes), which
// are assembled without regard to who is looking.
//
// An account hidden from everyone (suspended, or deleted and not yet cleaned up: contract
// sections 13 and 15) is, to every viewer, one that blocked them: it is in every viewer's
// `blockedBy` here, and relations() (lib/graph/relations.ts) reports it as `blocksCaller`. So
// every block filter hides it, with no second copy of them (lib/account/gone.ts).
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import { edgeIds } from '../users/repo';
import * as keys from '../keys';

/** Beyond this many blocks in either direction the set is cut (documented in ARCHITECTURE.md). */
export const HIDDEN_LIMIT = 10_000;

export interface BlockLists {
  /** Whom the viewer blocked, newest first (also the viewer's own `blocked_users`). */
  blocked: string[];
  /** Who blocked the viewer, and every account hidden from everyone. */
  blockedBy: string[];
}

/** The accounts hidden from everyone: one consistent Query of the GONE partition (ids only). */
export async function goneIds(): Promise<string[]> {
  const ids: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db.send(new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.goneAll() },
      ProjectionExpression: 'SK',
      ConsistentRead: true,
      ExclusiveStartKey: start,
      Limit: HIDDEN_LIMIT - ids.length,
    }));
    for (const item of res.Items ?? []) ids.push(String(item.SK));
    start = res.LastEvaluatedKey;
  } while (start && ids.length < HIDDEN_LIMIT);
  return ids;
}

/** Both block lists of the viewer, in one round trip (three Queries at once). */
export async function blockListsOf(viewerId: string): Promise<BlockLists> {
  const [blocked, blockedBy, gone] = await Promise.all([
    edgeIds('GSI1', keys.blocksOf(viewerId), HIDDEN_LIMIT),
    edgeIds('GSI2', keys.blockedByOf(viewerId), HIDDEN_LIMIT),
    goneIds(),
  ]);
  return { blocked, blockedBy: [...new Set([...blockedBy, ...gone.filter((id) => id !== viewerId)])] };
}

/** Ids of the users the viewer blocked or was blocked by. */
export const hiddenIds = ({ blocked, blockedBy }: BlockLists): Set<string> => new Set([...blocked, ...blockedBy]);

/** The answer fields that embed user ids. `blocked_users` is not one: it lists the blocks themselves. */
const EMBEDDED_USER_IDS = new Set(['followers', 'following', 'likes']);

/** Removes hidden ids from every embedded id array of an answer, at any depth, in place. */
export function scrubHidden(value: unknown, hidden: Set<string>): void {
  if (hidden.size === 0 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const v of value) scrubHidden(v, hidden);
    return;
  }
  const obj = value as Record<string, unknown>;
  for (const [k, v] of Object.entries(obj)) {
    if (EMBEDDED_USER_IDS.has(k) && Array.isArray(v) && v.every((x) => typeof x === 'string')) {
      obj[k] = v.filter((id) => !hidden.has(id as string));
    } else {
      scrubHidden(v, hidden);
    }
  }
}
