// Suggested users (contract section 7), from a bounded sample of the graph, computed at most
// once per SUGGEST_BOUNDS.cacheSeconds per caller and kept in one item with a TTL
// (docs/ARCHITECTURE.md, "Suggested users").
//
// Computing, after authentication's reads and the cache item (at most 3 sequential round trips).
// The cache item's request also reads the shared most-followed list (lib/graph/popular.ts)
// while this instance holds none younger than its bound:
//   1. one BatchGet of the sampled users' items, and the most-followed accounts' shards only
//      when no list young enough was held or read (then the list is written again in 3). The
//      samples are the caller's newest followings and newest followers, which its own item
//      carries (RECENT_IDS, lib/graph/recent.ts); only while the stream is behind the caller's
//      follows are they read from its indexes first (one more round trip, rare). Each sampled
//      item carries its own newest followings, the second hop; a sampled user whose ids are
//      behind has them read from the index (one more round trip, rare);
//   2. one BatchGet of the candidates' items, with the caller's follow edges to them when its
//      item does not show its whole following (lib/graph/relations.ts followPlan). The
//      most-followed accounts' items only when the graph may not fill the ranking (below);
//   3. the cache item's Put (and the most-followed list's, when 1 read the shards), beside the
//      BatchGet of the users the answer names that are not read yet (none: the samples and the
//      candidates are read already).
// followerBy = sampled followings of the caller that follow the candidate; mutualFollowers =
// sampled followers of the caller that follow the candidate, as their newest followings
// show. Both are exact within the samples, which is what keeps the work per call bounded.
//
// Serving from the cache: the cache item, then one BatchGet of the users it names. It is
// used while it is younger than cacheSeconds, covers the limit asked, and the caller's
// follow edges and blocks are as they were when it was computed (the caller's item's edgesV
// and blockedCount, read by authentication anyway). Whoever stands on either side of a block
// with the caller now, or is gone, is left out when serving, as when computing.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import { batchGet, itemKey } from '../db/batch';
import * as keys from '../keys';
import { compareIds } from '../ids';
import { edgeIds } from '../users/repo';
import { recentEdges, type BaseUser, type UserItem } from '../users/model';
import type { Viewer } from './viewer';
import { presentIds } from './present';
import { requestedAmong } from './visibility';
import { holdsTop, takeTop, topAccounts } from './popular';
import { followPlan, followReads } from './relations';

export const SUGGEST_BOUNDS = {
  /** The caller's newest followings whose followings are read (the second hop); its item keeps as many (RECENT_IDS.following). */
  followingSample: 20,
  /** Followings read per sampled user whose recent ids are behind (as many as the item keeps). */
  secondHop: 10,
  /** The caller's newest followers checked against each candidate (mutualFollowers); its item keeps as many (RECENT_IDS.followers). */
  followerSample: 10,
  /** Graph candidates kept, most followerBy first. */
  graphPool: 40,
  /** Candidates computed beyond `limit`, to fill after exclusions (and the most-followed accounts taken beyond it: POPULAR_TOP.size is the largest limit and this). */
  slack: 10,
  /** How long a computed list is served (the staleness bound of the ranking). */
  cacheSeconds: 600,
} as const;

export interface Suggestion extends BaseUser {
  mutualFollowers: BaseUser[];
  followerBy: BaseUser[];
}

interface Ranked {
  id: string;
  by: string[];
  mutual: string[];
}

/** The cache item: the ranking as ids, and what it was computed against. */
interface Cached {
  computedAt: number;
  edgesV: number;
  blockedCount: number;
  /** How many candidates were ranked: a call with a larger limit computes again. */
  depth: number;
  /** "id|by,by|mutual,mutual" per candidate, best first (compact: the item is read on every call). */
  ranked: string[];
}

const encode = (r: Ranked) => `${r.id}|${r.by.join(',')}|${r.mutual.join(',')}`;
const decode = (s: string): Ranked => {
  const [id, by, mutual] = s.split('|');
  return { id: id!, by: by ? by.split(',') : [], mutual: mutual ? mutual.split(',') : [] };
};

/** Not shown: deleted or suspended since the list was ranked (also in the hidden set, when authentication read it). */
const shown = (item: UserItem | undefined): item is UserItem => !!item && !item.deletedAt && !item.suspendedAt;

/** The caller's cached ranking, with the shared most-followed list while this instance holds none young enough (both eventually consistent, in one request). */
async function readCache(callerId: string): Promise<Cached | undefined> {
  const key = keys.suggestions(callerId);
  const found = await batchGet(holdsTop() ? [key] : [key, keys.popularTop()], { consistent: false });
  takeTop(found.get(itemKey(keys.popularTop())));
  return found.get(itemKey(key)) as Cached | undefined;
}

export async function suggest(caller: Viewer, limit: number): Promise<Suggestion[]> {
  const [me, hidden, cache] = await Promise.all([caller.user(), caller.hidden(), readCache(caller.userId)]);
  const depth = limit + SUGGEST_BOUNDS.slack;
  const fresh = cache
    && Date.now() - cache.computedAt < SUGGEST_BOUNDS.cacheSeconds * 1000
    && cache.depth >= depth
    && cache.edgesV === (me.edgesV ?? 0)
    && cache.blockedCount === (me.blockedCount ?? 0);
  const { ranked, known, stored } = fresh
    ? { ranked: cache.ranked.map(decode), known: new Map<string, UserItem>(), stored: Promise.resolve() }
    : await compute(caller.userId, me, hidden, depth);

  const visible = (id: string) => id !== caller.userId && !hidden.has(id);
  const candidates = ranked.filter((r) => visible(r.id)).slice(0, depth);
  const people = candidates.flatMap((r) => [r.id, ...r.by.filter(visible), ...r.mutual.filter(visible)]);
  // A ranking's Put goes beside this read; the answer waits for both (a Put that fails is a
  // 500, like every failed write of a request: the next call ranks again).
  // An account the caller has a request pending with is not suggested (contract section 18): read only when the caller has any.
  const [{ users, found }, , requested] = await Promise.all([
    presentIds(people, caller.userId, { known, hidden: caller.hidden() }), stored, requestedAmong(me, candidates.map((r) => r.id)),
  ]);
  const itemOf = (id: string) => known.get(id) ?? (found.get(itemKey(keys.user(id))) as UserItem | undefined);
  const objects = (ids: string[]) => ids.filter((id) => visible(id) && shown(itemOf(id)) && users.has(id)).map((id) => users.get(id)!);
  return candidates
    .filter((r) => shown(itemOf(r.id)) && users.has(r.id) && !requested.has(r.id))
    .slice(0, limit)
    .map((r) => ({ ...users.get(r.id)!, mutualFollowers: objects(r.mutual), followerBy: objects(r.by) }));
}

/** Ranks candidates from the samples and stores the ranking; the items it read are handed on, so that presenting reads nothing again. */
async function compute(callerId: string, me: UserItem, hidden: Set<string>, depth: number): Promise<{ ranked: Ranked[]; known: Map<string, UserItem>; stored: Promise<unknown> }> {
  const B = SUGGEST_BOUNDS;
  const popularAhead = topAccounts(depth);
  popularAhead.catch(() => undefined);
  // The samples from the caller's item while it reflects every follow change of the caller and
  // holds the whole sample (an item written before it kept RECENT_IDS.following may hold fewer).
  const recent = recentEdges(me);
  const whole = (ids: string[] | undefined, count: number | undefined, n: number) =>
    (ids && ids.length >= Math.min(Number(count ?? 0), n) ? ids.slice(0, n) : undefined);
  const [myFollowing, myFollowers] = await Promise.all([
    whole(recent?.following, me.followingCount, B.followingSample) ?? edgeIds('GSI1', keys.followingOf(callerId), B.followingSample),
    whole(recent?.followers, me.followersCount, B.followerSample) ?? edgeIds('GSI2', keys.followersOf(callerId), B.followerSample),
  ]);

  // The second hop, and the followers' followings, from the sampled users' own items.
  const sampled = [...new Set([...myFollowing, ...myFollowers])];
  const known = new Map<string, UserItem>();
  /** Keeps the users' items among those a BatchGet found. */
  const keep = (ids: string[], found: Map<string, unknown>) => {
    for (const id of ids) {
      const item = found.get(itemKey(keys.user(id))) as UserItem | undefined;
      if (item) known.set(id, item);
    }
  };
  // The ranking's inputs are read eventually consistent (half the read units): the ranking is
  // a cached answer, up to SUGGEST_BOUNDS.cacheSeconds old by design (docs/ARCHITECTURE.md).
  keep(sampled, await batchGet<UserItem>(sampled.map((id) => keys.user(id)), { consistent: false }));
  const followingOf = new Map<string, string[]>();
  await Promise.all(sampled.map(async (id) => {
    const item = known.get(id);
    const recent = item ? recentEdges(item) : undefined;
    followingOf.set(id, recent ? recent.following.slice(0, B.secondHop) : await edgeIds('GSI1', keys.followingOf(id), B.secondHop));
  }));
  const { top: popular, store: storeTop } = await popularAhead;

  // Only who the answer can show counts toward a rank: a sampled user hidden from the caller
  // (either side of a block, suspended, deleted) counts for nothing in `followerBy` and
  // `mutualFollowers`, as the answer leaves it out of their objects; else a candidate could
  // rank above one whose shown lists are longer (contract section 7's order). The lists are
  // kept whole in the ranking: whoever is unsuspended meanwhile is shown again when served.
  const counts = (id: string) => !hidden.has(id) && shown(known.get(id));
  const followerBy = new Map<string, string[]>();
  for (const f of myFollowing) {
    for (const c of followingOf.get(f) ?? []) {
      if (c !== callerId) followerBy.set(c, [...(followerBy.get(c) ?? []), f]);
    }
  }
  const shownBy = (c: string) => followerBy.get(c)!.filter(counts).length;
  const graph = [...followerBy.keys()]
    .filter((c) => shownBy(c) > 0)
    .sort((a, b) => shownBy(b) - shownBy(a))
    .slice(0, B.graphPool);
  // The most-followed accounts rank below every graph candidate (a followerBy of one or more).
  // While the caller's item shows whom it follows and the graph alone leaves `depth` candidates
  // it does not follow, their items are not read; should too many of those turn out deleted or
  // suspended, they are read after all (one more round trip, rare), so the ranking is the same.
  const eligible = (id: string) => id !== callerId && !hidden.has(id);
  const popularIds = popular.map((p) => p.id).filter(eligible);
  const byItem = followPlan(me, 0);
  const followed = byItem.how === 'recent' ? new Set(byItem.recentFollowing) : undefined;
  const graphAlone = !!followed && graph.filter((c) => eligible(c) && !followed.has(c)).length >= depth;
  const pool = [...new Set([...graph, ...(graphAlone ? [] : popularIds)])].filter(eligible);

  // The candidates' items (eventually consistent: the ranking's inputs) and whether the caller
  // follows them: from its item when that shows its whole following, else one Query of its
  // following or the follow keys, the cheaper (lib/graph/relations.ts). A follow of a moment
  // ago must exclude its target: while the caller's recent ids are behind its follows the keys
  // are read strongly consistent, beside the items; otherwise with the items, its newest
  // follows trusted beside them (followReads).
  const plan = byItem.how === 'recent' ? byItem : followPlan(me, pool.length);
  const follow = followReads(callerId, plan, pool);
  const strong = plan.how === 'keys' && !plan.recentFollowing;
  const itemKeys = pool.filter((id) => !known.has(id)).map((id) => keys.user(id));
  const [items, edges] = await Promise.all([
    batchGet<UserItem>(strong ? itemKeys : [...itemKeys, ...follow.keys], { consistent: false }),
    strong ? batchGet(follow.keys, { projection: 'createdAt' }) : undefined,
  ]);
  keep(pool, items);
  const follows = await follow.follows(edges ?? items);
  const by = (c: string) => followerBy.get(c) ?? [];
  const mutualOf = (c: string) => myFollowers.filter((s) => s !== c && (followingOf.get(s) ?? []).includes(c));
  const counted = (ids: string[]) => ids.filter(counts).length;
  const count = (c: string) => Number(known.get(c)?.followersCount ?? 0);
  const rank = (candidates: string[]) => candidates
    .filter((c) => shown(known.get(c)) && !follows(c))
    .map((c) => ({ id: c, by: by(c), mutual: mutualOf(c) }))
    .sort((a, b) => counted(b.by) - counted(a.by)
      || counted(b.mutual) - counted(a.mutual)
      || count(b.id) - count(a.id)
      || compareIds(a.id, b.id))
    .slice(0, depth);
  let ranked = rank(pool);
  if (graphAlone && ranked.length < depth) {
    const more = popularIds.filter((id) => !known.has(id));
    keep(more, await batchGet<UserItem>(more.map((id) => keys.user(id)), { consistent: false }));
    ranked = rank([...new Set([...pool, ...popularIds])]);
  }

  const computedAt = Date.now();
  // expiresAt is the table's TTL attribute (resources/table.json).
  const cached: Cached & Record<string, unknown> = {
    ...keys.suggestions(callerId),
    type: 'SUGGESTIONS',
    computedAt,
    edgesV: me.edgesV ?? 0,
    blockedCount: me.blockedCount ?? 0,
    depth,
    ranked: ranked.map(encode),
    // DynamoDB's TTL removes it some time after it stops being served.
    expiresAt: Math.floor(computedAt / 1000) + B.cacheSeconds,
  };
  const stored = Promise.all([db.send(new PutCommand({ TableName: TABLE, Item: cached })), storeTop?.()]);
  stored.catch(() => undefined);
  return { ranked, known, stored };
}
