// Post objects for a caller: the likers array (from like edges, newest first, capped) and
// the caller's isLiked / isBookmarked for a whole page in one BatchGet.
import { batchGet, itemKey, type Key } from '../db/batch';
import * as keys from '../keys';
import { EMBED_LIMIT, edgeIds } from '../users/repo';
import { toPostView, type PostItem, type PostView } from './model';

/**
 * How many liker ids a Post embeds: like the users' arrays (docs/ARCHITECTURE.md,
 * "Embedded id arrays"), the most recent 100 in a single-post answer and 10 in a list;
 * the exact total is likesCount and the complete list is GET /posts/{id}/likes.
 */
export const LIKES_EMBED = EMBED_LIMIT;

/** The newest likers of a post, at most `limit`. */
export const recentLikers = (postId: string, limit: number): Promise<string[]> => edgeIds('GSI1', keys.likesOf(postId), limit);

/** For each post id, whether the caller liked and bookmarked it: one BatchGet for the page. */
export async function viewerFlags(callerId: string, postIds: string[]) {
  const wanted: Key[] = postIds.flatMap((id) => [keys.postLike(id, callerId), keys.bookmark(callerId, id)]);
  const found = wanted.length ? await batchGet(wanted, { projection: 'createdAt' }) : new Map();
  return new Map(postIds.map((id) => [id, {
    isLiked: found.has(itemKey(keys.postLike(id, callerId))),
    isBookmarked: found.has(itemKey(keys.bookmark(callerId, id))),
  }]));
}

/** The caller's relation to a post, as toPostView shows it. */
type Flags = Parameters<typeof toPostView>[2];

/**
 * What presenting posts reads, started before the posts themselves are read: a read whose
 * candidates' ids come before their items (the home feed's entries) sends the likers Queries
 * and the flags BatchGet beside the items' own read, one round trip earlier. Each post id's
 * reads are started once; presentPosts takes them from here, and reads what was not started.
 */
export interface PresentAhead {
  start(postIds: string[]): void;
  likers: Map<string, Promise<string[]>>;
  flags: Map<string, Promise<Flags>>;
}

export function presentAhead(callerId: string, likesLimit: number = LIKES_EMBED.list): PresentAhead {
  const likers = new Map<string, Promise<string[]>>();
  const flags = new Map<string, Promise<Flags>>();
  return {
    likers,
    flags,
    start(postIds) {
      const fresh = [...new Set(postIds)].filter((id) => !likers.has(id));
      if (!fresh.length) return;
      // The post's likesCount is not known yet: a post without likes costs an empty Query.
      for (const id of fresh) likers.set(id, recentLikers(id, likesLimit));
      const read = viewerFlags(callerId, fresh);
      for (const id of fresh) flags.set(id, read.then((m) => m.get(id)!));
      // Candidates left out of the page are never awaited: their failures must not go unhandled.
      for (const p of [...fresh.map((id) => likers.get(id)!), read]) p.catch(() => undefined);
    },
  };
}

/** A page of posts as the caller sees them: one round trip (likers queries ∥ flags BatchGet), none for what `ahead` started. */
export async function presentPosts(items: PostItem[], callerId: string, likesLimit: number = LIKES_EMBED.list, ahead?: PresentAhead): Promise<PostView[]> {
  const rest = items.filter((p) => !ahead?.flags.has(p.id)).map((p) => p.id);
  const restFlags = rest.length ? viewerFlags(callerId, rest) : Promise.resolve(new Map<string, Flags>());
  const [likers, flags] = await Promise.all([
    Promise.all(items.map((p) => ahead?.likers.get(p.id)
      // likesCount moves in the like's own transaction: 0 means there is no like edge to read.
      ?? (p.likesCount ? recentLikers(p.id, likesLimit) : Promise.resolve([])))),
    Promise.all(items.map((p) => ahead?.flags.get(p.id) ?? restFlags.then((m) => m.get(p.id)!))),
  ]);
  return items.map((p, i) => toPostView(p, likers[i]!, flags[i]!));
}
