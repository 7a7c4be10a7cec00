// Contract section 6: to a user on either side of a block, the other does not exist. The
// lists and feeds leave such users out where they read them; this is the last guard for the
// ids embedded in answers (a User's followers/following, a Post's or Comment's likes), which
// are assembled without regard to who is looking.
//
// An account hidden from everyone (suspended, or deleted and not yet cleaned up: contract
// sections 13 and 15) is, to every viewer, one that blocked them: it is in every viewer's
// `blockedBy` here, and relations() (lib/graph/relations.ts) reports it as `blocksCaller`. So
// every block filter hides it, with no second copy of them (lib/users/gone.ts).
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import { edgeIds, loadEdges } from '../users/repo';
import * as keys from '../keys';
import type { UserEdges } from '../users/model';

/** Beyond this many blocks in either direction the set is cut (documented in ARCHITECTURE.md). */
export const HIDDEN_LIMIT = 10_000;

export interface BlockLists {
  /** Whom the viewer blocked, newest first (also the viewer's own `blocked_users`). */
  blocked: string[];
  /** Who blocked the viewer, and every account hidden from everyone. */
  blockedBy: string[];
  /**
   * The accounts hidden from everyone (suspended, or deleted and not yet cleaned up), the viewer
   * not among them: also in `blockedBy`. The viewer's own list of blocks leaves them out
   * (visibleBlocks), as every other list does.
   */
  gone?: string[];
}

/** The GONE partition as this instance last read it whole: its version and its ids. */
interface GoneCopy {
  version: number;
  ids: string[];
  readAt: number;
}
let copy: GoneCopy | undefined;

/**
 * A copy this old is read again whole even when the version has not moved. Why at all: the
 * whole read takes the version from the partition's first item and the ids after it, and a
 * Query does not see a transaction's items all at one moment. A change that commits while
 * the Query runs can leave a copy whose version is new and whose ids are not; this bounds
 * how long such a copy serves (docs/ARCHITECTURE.md, pattern 43).
 */
export const GONE_COPY_MAX_AGE_MS = 60_000;

const versionOf = (item: Record<string, unknown> | undefined) => Number(item?.v ?? 0);

/** The whole partition, consistent: its version item first (its key sorts first), then up to HIDDEN_LIMIT ids. */
async function readGone(): Promise<GoneCopy> {
  const readAt = Date.now();
  const ids: string[] = [];
  let version = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db.send(new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.goneAll() },
      ProjectionExpression: 'SK, v',
      ConsistentRead: true,
      ExclusiveStartKey: start,
      Limit: HIDDEN_LIMIT - ids.length,
    }));
    for (const item of res.Items ?? []) {
      if (item.SK === keys.GONE_VERSION_SK) version = versionOf(item);
      else ids.push(String(item.SK));
    }
    start = res.LastEvaluatedKey;
  } while (start && ids.length < HIDDEN_LIMIT);
  return { version, ids, readAt };
}

/**
 * The accounts hidden from everyone, exact at the time of the call. An instance reads the
 * GONE partition whole once, then only its version while the version stays where it was
 * (every transaction that puts or removes a GONE item moves it: lib/users/gone.ts
 * goneChanged). So a request pays one small consistent read, not the whole partition, which
 * grows with the stage's suspended accounts (1,000 of them: 29 RCU a request). Read whole
 * again: when the version moved, and once the copy is GONE_COPY_MAX_AGE_MS old.
 */
export async function goneIds(): Promise<string[]> {
  const held = copy;
  // The version alone: one consistent GetItem of one small item.
  if (held && Date.now() - held.readAt < GONE_COPY_MAX_AGE_MS
    && versionOf((await db.send(new GetCommand({ TableName: TABLE, Key: keys.goneVersion(), ConsistentRead: true }))).Item) === held.version) {
    return held.ids;
  }
  // Two requests may read at once: whichever is kept, its version is its own ids'.
  copy = await readGone();
  return copy.ids;
}

/** Newest first, as the block indexes order them (`<createdAt>#<id>`, descending). */
const newestFirst = (entries: { id: string; createdAt: string }[]) =>
  entries.sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1)).map((e) => e.id);

/**
 * Both directions of the viewer's blocks, from its own partition: the block edges (BLOCKS#)
 * and their mirrors (BLOCKEDBY#) share the prefix BLOCK, so one consistent Query reads both
 * (one request where it took two index Queries, and exact at once: no index lag). Undefined
 * when the viewer has more than 2 x HIDDEN_LIMIT of them: the caller then reads each
 * direction from its index, newest first, cut at HIDDEN_LIMIT.
 */
async function ownBlocks(viewerId: string, cap: number): Promise<{ blocked: string[]; blockedBy: string[] } | undefined> {
  const blocked: { id: string; createdAt: string }[] = [];
  const blockedBy: { id: string; createdAt: string }[] = [];
  const blocksPrefix = keys.block(viewerId, '').SK;
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db.send(new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.user(viewerId).PK, ':prefix': keys.BLOCK_PREFIX },
      ProjectionExpression: 'SK, createdAt',
      ConsistentRead: true,
      Limit: cap,
      ExclusiveStartKey: start,
    }));
    for (const item of res.Items ?? []) {
      const sk = String(item.SK);
      const entry = { id: sk.slice(sk.indexOf('#') + 1), createdAt: String(item.createdAt ?? '') };
      (sk.startsWith(blocksPrefix) ? blocked : blockedBy).push(entry);
    }
    start = res.LastEvaluatedKey;
    if (start && blocked.length + blockedBy.length >= cap) return undefined;
  } while (start);
  return { blocked: newestFirst(blocked).slice(0, HIDDEN_LIMIT), blockedBy: newestFirst(blockedBy).slice(0, HIDDEN_LIMIT) };
}

/**
 * Both block lists of the viewer, in one round trip (two Queries at once: its blocks, the
 * GONE partition). `cap`: how many blocks the own-partition Query reads before it leaves the
 * rest to the indexes (tests make it small to take that path).
 */
export async function blockListsOf(viewerId: string, cap = 2 * HIDDEN_LIMIT): Promise<BlockLists> {
  const [own, gone] = await Promise.all([ownBlocks(viewerId, cap), goneIds()]);
  const [blocked, blockedBy] = own
    ? [own.blocked, own.blockedBy]
    : await Promise.all([edgeIds('GSI1', keys.blocksOf(viewerId), HIDDEN_LIMIT), edgeIds('GSI2', keys.blockedByOf(viewerId), HIDDEN_LIMIT)]);
  const hiddenFromAll = gone.filter((id) => id !== viewerId);
  return { blocked, blockedBy: [...new Set([...blockedBy, ...hiddenFromAll])], gone: hiddenFromAll };
}

/**
 * The viewer's blocks as the viewer sees them (its `blocked_users`, its blocked list): without
 * the accounts hidden from everyone, which leave every list (contract sections 13 and 15) and
 * come back to it when unsuspended.
 */
export function visibleBlocks(lists: BlockLists): string[] {
  if (!lists.gone?.length) return lists.blocked;
  const gone = new Set(lists.gone);
  return lists.blocked.filter((id) => !gone.has(id));
}

/**
 * What a caller's own object reads of its own block lists, which authentication reads on every
 * GET: its blocks as it sees them (visibleBlocks) and who is hidden from it (its bookmarks of
 * their posts are left out).
 */
export const ownAhead = (caller: { blockLists(): Promise<BlockLists>; hidden(): Promise<Set<string>> }) =>
  ({ blocked: caller.blockLists().then(visibleBlocks), hidden: caller.hidden() });

/**
 * An account's own edges as it sees them, for an answer that did not read its block lists (a
 * login): they are read beside the edges, and serve as ownAhead's do.
 */
export function ownEdgesSeen(userId: string, limit: number): Promise<UserEdges> {
  const lists = blockListsOf(userId);
  lists.catch(() => undefined);
  return loadEdges(userId, true, limit, { blocked: lists.then(visibleBlocks), hidden: lists.then(hiddenIds) });
}

/** Ids of the users the viewer blocked or was blocked by. */
export const hiddenIds = ({ blocked, blockedBy }: BlockLists): Set<string> => new Set([...blocked, ...blockedBy]);

/** The answer fields that embed user ids. `blocked_users` is not one: it lists the blocks themselves. */
const EMBEDDED_USER_IDS = new Set(['followers', 'following', 'likes']);

/**
 * Removes hidden ids from every embedded id array of an answer, at any depth, in place; and
 * from the viewer's own `blocked_users`, the accounts hidden from everyone (`gone`, a subset
 * of `hidden`: visibleBlocks).
 */
export function scrubHidden(value: unknown, hidden: Set<string>, gone?: Set<string>): void {
  if (hidden.size === 0 || value === null || typeof value !== 'object') return;
  // An array's entries are its keys here, none of them a field name: each is scrubbed in turn.
  const obj = value as Record<string, unknown>;
  for (const [k, v] of Object.entries(obj)) {
    const drop = k === 'blocked_users' ? gone : EMBEDDED_USER_IDS.has(k) ? hidden : undefined;
    if (drop && Array.isArray(v) && v.every((x) => typeof x === 'string')) obj[k] = v.filter((id) => !drop.has(id));
    else scrubHidden(v, hidden, gone);
  }
}
