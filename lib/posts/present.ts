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

/** A page of posts as the caller sees them: one round trip (likers queries ∥ flags BatchGet). */
export async function presentPosts(items: PostItem[], callerId: string, likesLimit: number = LIKES_EMBED.list): Promise<PostView[]> {
  const ids = items.map((p) => p.id);
  const [likers, flags] = await Promise.all([
    // likesCount moves in the like's own transaction: 0 means there is no like edge to read.
    Promise.all(items.map((p) => (p.likesCount ? recentLikers(p.id, likesLimit) : Promise.resolve([])))),
    viewerFlags(callerId, ids),
  ]);
  return items.map((p, i) => toPostView(p, likers[i]!, flags.get(p.id)!));
}
