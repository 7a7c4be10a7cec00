// Reading users: by id, by username (any case), and the edge lists embedded in a User
// object. Edge arrays are assembled from edge items (Queries in parallel), newest first,
// capped: the exact totals are the *Count fields, the complete lists are the paged
// list endpoints (docs/ARCHITECTURE.md, "Embedded id arrays").
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import { batchGet, itemKey } from '../db/batch';
import * as keys from '../keys';
import { INDEX } from '../keys';
import { isId } from '../ids';
import type { UserEdges, UserItem } from './model';
import { privateUnfollowedIds } from './private';

/** How many ids a User object embeds per array: in a single-user answer, and in a list. */
export const EMBED_LIMIT = { single: 100, list: 10 } as const;

export async function getUser(userId: string): Promise<UserItem | undefined> {
  if (!isId(userId)) return undefined;
  // Strongly consistent: a token used right after registration must find its account.
  const res = await db.send(new GetCommand({ TableName: TABLE, Key: keys.user(userId.toUpperCase()), ConsistentRead: true }));
  return res.Item as UserItem | undefined;
}

/** The user id an identifier names: an id as given, a username through its claim. */
export async function resolveUserId(identifier: string): Promise<string | undefined> {
  if (isId(identifier)) return identifier.toUpperCase();
  const res = await db.send(new GetCommand({ TableName: TABLE, Key: keys.username(identifier), ConsistentRead: true }));
  return res.Item?.userId as string | undefined;
}

export async function getUsers(ids: string[]): Promise<Map<string, UserItem>> {
  const found = await batchGet<UserItem>(ids.map((id) => keys.user(id)));
  const byId = new Map<string, UserItem>();
  for (const id of ids) {
    const item = found.get(itemKey(keys.user(id)));
    if (item) byId.set(id, item);
  }
  return byId;
}

/** Ids at the end of an index sort key `<createdAt>#<id>`, newest first. */
export async function edgeIds(index: 'GSI1' | 'GSI2', partition: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let start: Record<string, unknown> | undefined;
  const sk = `${index}SK`;
  do {
    const res = await db.send(new QueryCommand({
      TableName: TABLE,
      IndexName: INDEX[index],
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': `${index}PK`, '#sk': sk },
      ExpressionAttributeValues: { ':pk': partition },
      ProjectionExpression: '#sk',
      ScanIndexForward: false,
      Limit: limit - ids.length,
      ExclusiveStartKey: start,
    }));
    for (const item of res.Items ?? []) ids.push(String(item[sk]).split('#').pop()!);
    start = res.LastEvaluatedKey;
  } while (start && ids.length < limit);
  return ids;
}

/**
 * Drops post ids whose post no longer exists, or whose author is hidden from the owner (either
 * side of a block, or hidden from everyone: contract sections 6 and 15): a post the owner cannot
 * open is never shown as bookmarked. Its bookmark stays, and shows again once the author does.
 */
async function livePosts(userId: string, postIds: string[], hidden?: Promise<Set<string>>): Promise<string[]> {
  if (!postIds.length) return postIds;
  const [found, unseen] = await Promise.all([batchGet(postIds.map((id) => keys.post(id)), { projection: '#a', names: { '#a': 'author' } }), hidden]);
  return withoutLocked(userId, postIds.filter(bookmarkShown(found, unseen)), found);
}

/**
 * Bookmarked posts of private accounts the user does not follow (any more) leave its own
 * object's `bookmarks` (contract section 18): one BatchGet of the posts' authors' items and
 * follow keys, beside nothing else; none when every author is the user.
 */
export async function withoutLocked(userId: string, postIds: string[], found: Map<string, unknown>): Promise<string[]> {
  const authorOf = (id: string) => String((found.get(itemKey(keys.post(id))) as { author?: string } | undefined)?.author);
  const locked = await privateUnfollowedIds(userId, postIds.map(authorOf));
  return locked.size ? postIds.filter((id) => !locked.has(authorOf(id))) : postIds;
}

/** Whether a bookmarked post is shown, from a read of the posts that holds their `author` (livePosts' rule). */
export const bookmarkShown = (found: Map<string, unknown>, unseen?: Set<string>) => (postId: string) => {
  const post = found.get(itemKey(keys.post(postId))) as { author?: string } | undefined;
  return post !== undefined && !unseen?.has(String(post.author));
};

/** A user's newest bookmarked post ids, dead posts not yet dropped (loadEdges does that). */
export const bookmarkIds = (userId: string, limit: number) => edgeIds('GSI1', keys.bookmarksOf(userId), limit);

/** Lists of the user's own edges already read or in flight, so they are not read twice. */
export interface EdgesAhead {
  /** bookmarkIds(userId, limit), read ahead so that the liveness check of the bookmarked posts
   * does not wait for that Query (lists that may contain the viewer's own object read them
   * before knowing whether it does). */
  bookmarks?: Promise<string[]>;
  /** The user's blocks newest first, at least `limit` of them (the caller's block lists, read
   * by authentication on every GET). */
  blocked?: Promise<string[]>;
  /**
   * The users hidden from the owner (lib/graph/hidden.ts hiddenIds): they leave its `followers`
   * and `following`, and their posts its `bookmarks`. An answer that is not a GET is not
   * scrubbed by lib/http (a login, a profile edit), so its own object is filtered here.
   */
  hidden?: Promise<Set<string>>;
}

export async function loadEdges(userId: string, own: boolean, limit: number, ahead: EdgesAhead = {}): Promise<UserEdges> {
  const [followers, following, bookmarked, blocked, unseen] = await Promise.all([
    edgeIds('GSI2', keys.followersOf(userId), limit),
    edgeIds('GSI1', keys.followingOf(userId), limit),
    own ? (ahead.bookmarks ?? bookmarkIds(userId, limit)).then((ids) => livePosts(userId, ids, ahead.hidden)) : undefined,
    own ? (ahead.blocked?.then((ids) => ids.slice(0, limit)) ?? edgeIds('GSI1', keys.blocksOf(userId), limit)) : undefined,
    ahead.hidden,
  ]);
  const seen = (ids: string[]) => (unseen ? ids.filter((id) => !unseen.has(id)) : ids);
  return own ? { followers: seen(followers), following: seen(following), bookmarks: bookmarked, blocked_users: blocked } : { followers, following };
}
