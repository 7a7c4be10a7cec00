// Post objects for a caller: the likers array (from like edges, newest first, capped) and
// the caller's isLiked / isBookmarked. A page reads the flags and each post's recent likers
// item (kept by the stream, lib/posts/recent-likers.ts) in one BatchGet, and reads the likes
// index only for a post whose item is behind it.
import { batchGet, itemKey, type Key } from '../db/batch';
import * as keys from '../keys';
import { EMBED_LIMIT, edgeIds } from '../users/repo';
import { toPostView, type PostItem, type PostView } from './model';
import { currentLikers, LIKERS_NAMES, LIKERS_PROJECTION, type LikersView } from './likers-item';

/**
 * How many liker ids a Post embeds: like the users' arrays (docs/ARCHITECTURE.md,
 * "Embedded id arrays"), the most recent 100 in a single-post answer and 10 in a list;
 * the exact total is likesCount and the complete list is GET /posts/{id}/likes.
 */
export const LIKES_EMBED = EMBED_LIMIT;

/** The newest likers of a post, at most `limit`. */
export const recentLikers = (postId: string, limit: number): Promise<string[]> => edgeIds('GSI1', keys.likesOf(postId), limit);

/** The caller's relation to a post, as toPostView shows it. */
type Flags = Parameters<typeof toPostView>[2];

/** What a page reads for one post: the caller's flags and, when asked, the post's recent likers item. */
export interface PageReads {
  flags: Flags;
  recent?: LikersView;
}

/**
 * The page's one BatchGet: for each post id the caller's like and bookmark edges, and for the
 * ids of `withLikers` the recent likers item beside the post. Strongly consistent: the caller
 * sees its own like and bookmark at once.
 */
async function pageReads(callerId: string, postIds: string[], withLikers: string[]): Promise<Map<string, PageReads>> {
  const wanted: Key[] = [
    ...postIds.flatMap((id) => [keys.postLike(id, callerId), keys.bookmark(callerId, id)]),
    ...withLikers.map((id) => keys.postLikers(id)),
  ];
  const found = wanted.length
    ? await batchGet<LikersView>(wanted, withLikers.length
      ? { projection: `#c, ${LIKERS_PROJECTION}`, names: { '#c': 'createdAt', ...LIKERS_NAMES } }
      : { projection: 'createdAt' })
    : new Map<string, LikersView>();
  return new Map(postIds.map((id) => [id, {
    flags: { isLiked: found.has(itemKey(keys.postLike(id, callerId))), isBookmarked: found.has(itemKey(keys.bookmark(callerId, id))) },
    recent: found.get(itemKey(keys.postLikers(id))),
  }]));
}

/** For each post id, whether the caller liked and bookmarked it: one BatchGet for the page. */
export async function viewerFlags(callerId: string, postIds: string[]): Promise<Map<string, Flags>> {
  const reads = await pageReads(callerId, postIds, []);
  return new Map([...reads].map(([id, r]) => [id, r.flags]));
}

/**
 * What presenting posts reads, started before the posts themselves are read: a read whose
 * candidates' ids come before their items (the home feed's entries, the bookmarks) sends the
 * page's BatchGet beside the items' own read, one round trip earlier. Each post id's reads
 * are started once; presentPosts takes them from here, and reads what was not started.
 */
export interface PresentAhead {
  start(postIds: string[]): void;
  reads: Map<string, Promise<PageReads>>;
}

export function presentAhead(callerId: string): PresentAhead {
  const reads = new Map<string, Promise<PageReads>>();
  return {
    reads,
    start(postIds) {
      const fresh = [...new Set(postIds)].filter((id) => !reads.has(id));
      if (!fresh.length) return;
      // The posts' likesCount is not known yet: every post's likers item is read (a key of the same request).
      const read = pageReads(callerId, fresh, fresh);
      for (const id of fresh) reads.set(id, read.then((m) => m.get(id)!));
      // Candidates left out of the page are never awaited: a failure must not go unhandled.
      read.catch(() => undefined);
    },
  };
}

/**
 * A page of posts as the caller sees them: one round trip (the page's BatchGet), none for
 * what `ahead` started; then a likes-index Query only for a liked post whose recent likers
 * item is missing or behind its likesV (the stream has not caught up with its last like or
 * unlike), or when more likers than the item holds are asked for.
 */
export async function presentPosts(items: PostItem[], callerId: string, likesLimit: number = LIKES_EMBED.list, ahead?: PresentAhead): Promise<PostView[]> {
  const fromItem = likesLimit <= LIKES_EMBED.list;
  const rest = items.filter((p) => !ahead?.reads.has(p.id));
  // likesCount moves in the like's own transaction: 0 means there is no like edge to show.
  const restReads = rest.length
    ? pageReads(callerId, rest.map((p) => p.id), fromItem ? rest.filter((p) => p.likesCount).map((p) => p.id) : [])
    : Promise.resolve(new Map<string, PageReads>());
  return Promise.all(items.map(async (p) => {
    const read = await (ahead?.reads.get(p.id) ?? restReads.then((m) => m.get(p.id)!));
    const recent = fromItem ? currentLikers(read.recent, p) : undefined;
    const likes = !p.likesCount ? [] : recent ? recent.slice(0, likesLimit) : await recentLikers(p.id, likesLimit);
    return toPostView(p, likes, read.flags);
  }));
}
