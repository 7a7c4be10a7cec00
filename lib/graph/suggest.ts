// Suggested users (contract section 7), from a bounded sample of the graph, in at most
// 4 sequential round trips:
//   1. the caller's newest followings, newest followers, and the most-followed accounts
//   2. each sampled following's newest followings (the second hop)
//   3. for the candidate pool: one BatchGet of the user items and relations to the caller
//      (excludes followed, blocked either way) ∥ the follow edges sampled-follower ->
//      candidate (mutualFollowers; eventually consistent, so a BatchGet of its own)
//   4. the User objects of the chosen candidates and of the sampled users that appear in
//      their followerBy / mutualFollowers (only those: most of the sample usually does not)
// followerBy = sampled followings of the caller that follow the candidate; mutualFollowers
// = sampled followers of the caller that follow the candidate. Both are exact within the
// samples, which is what keeps the work per call bounded (docs/ARCHITECTURE.md).
import { batchGet, itemKey } from '../db/batch';
import * as keys from '../keys';
import { edgeIds } from '../users/repo';
import type { BaseUser, UserItem } from '../users/model';
import { blockedEitherWay, readRelations, relationKeys } from './relations';
import { presentIds } from './present';
import { mostFollowed } from './popular';

export const SUGGEST_BOUNDS = {
  /** The caller's newest followings whose followings are read (the second hop). */
  followingSample: 20,
  /** Followings read per sampled following. */
  secondHop: 20,
  /** The caller's newest followers checked against each candidate (mutualFollowers). */
  followerSample: 10,
  /** Graph candidates kept, most followerBy first. */
  graphPool: 40,
  /** Most-followed accounts considered beyond `limit`, to fill after exclusions. */
  popularExtra: 10,
} as const;

export interface Suggestion extends BaseUser {
  mutualFollowers: BaseUser[];
  followerBy: BaseUser[];
}

export async function suggest(callerId: string, limit: number): Promise<Suggestion[]> {
  const B = SUGGEST_BOUNDS;
  const [myFollowing, myFollowers, popular] = await Promise.all([
    edgeIds('GSI1', keys.followingOf(callerId), B.followingSample),
    edgeIds('GSI2', keys.followersOf(callerId), B.followerSample),
    mostFollowed(limit + B.popularExtra),
  ]);

  const hops = await Promise.all(myFollowing.map((f) => edgeIds('GSI1', keys.followingOf(f), B.secondHop)));
  const followerBy = new Map<string, string[]>();
  myFollowing.forEach((f, i) => {
    for (const c of hops[i]!) {
      if (c === callerId) continue;
      followerBy.set(c, [...(followerBy.get(c) ?? []), f]);
    }
  });
  const graph = [...followerBy.keys()]
    .sort((a, b) => followerBy.get(b)!.length - followerBy.get(a)!.length)
    .slice(0, B.graphPool);
  const pool = [...new Set([...graph, ...popular.map((p) => p.id)])].filter((id) => id !== callerId);

  const [found, mutualEdges] = await Promise.all([
    batchGet([...pool.map((id) => keys.user(id)), ...relationKeys(callerId, pool)]),
    batchGet(myFollowers.flatMap((s) => pool.filter((c) => c !== s).map((c) => keys.follow(s, c))), { projection: 'createdAt', consistent: false }),
  ]);
  const rels = readRelations(callerId, pool, found);
  const items = new Map(pool.flatMap((id) => {
    const item = found.get(itemKey(keys.user(id))) as UserItem | undefined;
    return item ? [[id, item] as const] : [];
  }));
  const mutual = (c: string) => myFollowers.filter((s) => s !== c && mutualEdges.has(itemKey(keys.follow(s, c))));
  const by = (c: string) => followerBy.get(c) ?? [];
  const count = (c: string) => Number(items.get(c)?.followersCount ?? 0);
  const chosen = pool
    .filter((c) => {
      const r = rels.get(c);
      return items.has(c) && !!r && !r.isFollowing && !blockedEitherWay(r);
    })
    .sort((a, b) => by(b).length - by(a).length
      || mutual(b).length - mutual(a).length
      || count(b) - count(a)
      || a.localeCompare(b))
    .slice(0, limit);

  // The chosen candidates' items were read above; only the users they show are read here.
  const { users } = await presentIds([...chosen, ...chosen.flatMap((c) => [...mutual(c), ...by(c)])], callerId, { known: items });
  const objects = (ids: string[]) => ids.flatMap((id) => (users.has(id) ? [users.get(id)!] : []));
  return chosen
    .filter((c) => users.has(c))
    .map((c) => ({ ...users.get(c)!, mutualFollowers: objects(mutual(c)), followerBy: objects(by(c)) }));
}
