// Post objects for a caller: the likers array (from like edges, newest first, capped) and
// the caller's isLiked / isBookmarked for a whole page in one BatchGet.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import { batchGet, itemKey, type Key } from '../db/batch';
import { INDEX, keys } from '../keys';
import { EMBED_LIMIT } from '../users/repo';
import { toPostView, type PostItem, type PostView } from './model';

/**
 * How many liker ids a Post embeds: like the users' arrays (docs/ARCHITECTURE.md,
 * "Embedded id arrays"), the most recent 100 in a single-post answer and 10 in a list;
 * the exact total is likesCount and the complete list is GET /posts/{id}/likes.
 */
export const LIKES_EMBED = EMBED_LIMIT;

/** The newest likers of a post, at most `limit`. */
export async function recentLikers(postId: string, limit: number): Promise<string[]> {
  const res = await db.send(new QueryCommand({
    TableName: TABLE,
    IndexName: INDEX.GSI1,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.likesOf(postId) },
    ProjectionExpression: 'GSI1SK',
    ScanIndexForward: false,
    Limit: limit,
  }));
  return (res.Items ?? []).map((i) => String(i.GSI1SK).split('#').pop()!);
}

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
    Promise.all(ids.map((id) => recentLikers(id, likesLimit))),
    viewerFlags(callerId, ids),
  ]);
  return items.map((p, i) => toPostView(p, likers[i]!, flags.get(p.id)!));
}
