// What a report points at: checked for the reporter (it must exist and not be hidden from them
// by a block: 404; their own: 400 SELF_ACTION), shown to moderators as it is now (null once
// gone), and whose account a suspension hits.
import { getPost, toPost, type Post, type PostItem } from '../posts/model';
import { getComment, toComment, type Comment, type CommentItem } from '../comments/model';
import { EMBED_LIMIT, edgeIds, getUser, loadEdges } from '../users/repo';
import { recentEdges, toBaseUser, type BaseUser, type UserEdges, type UserItem } from '../users/model';
import { currentLikers, type LikersView } from '../posts/likers-item';
import { relations } from '../graph/relations';
import { batchGet, itemKey } from '../db/batch';
import * as keys from '../keys';
import { NotFound, SelfAction } from '../errors';
import type { ReportItem, TargetType } from './reports';

export type TargetRecord = { type: 'post'; item: PostItem } | { type: 'comment'; item: CommentItem } | { type: 'user'; item: UserItem };

/** The keys of what a comment stands under: its post, and a reply's parent comment. */
const aboveOf = (c: CommentItem) => [keys.post(c.post), ...(c.parentComment ? [keys.comment(c.parentComment)] : [])];

/**
 * A comment every read still shows: it, its post and its parent all stand. A deleted post's or
 * comment's children leave every read at once and are drained after it (contract section 8):
 * until then their items are there, and they are gone all the same.
 */
async function liveComment(id: string): Promise<CommentItem | undefined> {
  const item = await getComment(id);
  if (!item) return undefined;
  const above = aboveOf(item);
  const found = await batchGet(above, { projection: 'createdAt' });
  return above.every((k) => found.has(itemKey(k))) ? item : undefined;
}

/** The record as stored, undefined when gone (a deleted user's item, while its cleanup runs, counts as gone; so does a comment under a deleted post or comment). */
export async function targetRecord(type: TargetType, id: string): Promise<TargetRecord | undefined> {
  if (type === 'post') { const item = await getPost(id); return item && { type, item }; }
  if (type === 'comment') { const item = await liveComment(id); return item && { type, item }; }
  const item = await getUser(id);
  return item && !item.deletedAt ? { type, item } : undefined;
}

export const ownerOf = (t: TargetRecord): string => (t.type === 'user' ? t.item.id : t.item.author);

/** The target as the reporter may report it: else 404 (missing or hidden by a block), 400 for their own. */
export async function reportable(reporterId: string, type: TargetType, id: string): Promise<TargetRecord> {
  const target = await targetRecord(type, id);
  if (!target) throw new NotFound(type);
  const owner = ownerOf(target);
  if (owner === reporterId) throw new SelfAction(type === 'user' ? 'You cannot report yourself.' : `You cannot report your own ${type}.`);
  const authors = target.type === 'comment' ? [...new Set([target.item.author, target.item.postAuthor, ...(target.item.parentAuthor ? [target.item.parentAuthor] : [])])] : [owner];
  const rel = await relations(reporterId, authors);
  if (authors.some((a) => a !== reporterId && rel.get(a)?.blocksCaller)) throw new NotFound(type);
  return target;
}

export type TargetView = Post | Comment | BaseUser | null;

/** The newest likers of a post or comment as a list shows them: its recent likers item when current, else the likes index. */
async function listedLikers(record: PostItem | CommentItem, likersItem: LikersView | undefined): Promise<string[]> {
  if (!record.likesCount) return [];
  return currentLikers(likersItem, record)?.slice(0, EMBED_LIMIT.list) ?? edgeIds('GSI1', keys.likesOf(record.id), EMBED_LIMIT.list);
}

/** A user's newest followers and following as a list shows them: its recent ids when current, else its edges. */
const listedEdges = (item: UserItem): Promise<UserEdges> | UserEdges => {
  const recent = recentEdges(item);
  return recent
    ? { followers: recent.followers.slice(0, EMBED_LIMIT.list), following: recent.following.slice(0, EMBED_LIMIT.list) }
    : loadEdges(item.id, false, EMBED_LIMIT.list);
};

/**
 * Each report's target as it is now (null when gone), for a page of the queue, as every list
 * shows it (contract section 15): its fields and its embedded id arrays, a post's or comment's
 * `likes` and a user's `followers` and `following`, the newest EMBED_LIMIT.list of each. One
 * BatchGet reads the targets and, beside a post or comment, its recent likers item; the likes
 * or follow edges are read only for a target whose recent ids are behind (as presentPosts and
 * presentIds do). lib/http removes the users hidden from the moderator from those arrays.
 */
export async function targetViews(reports: ReportItem[]): Promise<Map<string, TargetView>> {
  const key = (r: ReportItem) => (r.targetType === 'post' ? keys.post(r.targetId) : r.targetType === 'comment' ? keys.comment(r.targetId) : keys.user(r.targetId));
  const likersKey = (r: ReportItem) => (r.targetType === 'post' ? keys.postLikers(r.targetId) : r.targetType === 'comment' ? keys.commentLikers(r.targetId) : undefined);
  const wanted = [...reports.map(key), ...reports.flatMap((r) => likersKey(r) ?? [])];
  const found = wanted.length ? await batchGet(wanted) : new Map<string, unknown>();
  // A comment under a deleted post or comment is gone too (liveComment): what the found
  // comments stand under, in a second BatchGet only when the page has comments.
  const comments = reports.flatMap((r) => (r.targetType === 'comment' && found.has(itemKey(key(r))) ? [found.get(itemKey(key(r))) as CommentItem] : []));
  const above = comments.length ? await batchGet(comments.flatMap(aboveOf), { projection: 'createdAt' }) : new Map<string, unknown>();
  const views = await Promise.all(reports.map(async (r): Promise<[string, TargetView]> => {
    const item = found.get(itemKey(key(r)));
    const orphan = r.targetType === 'comment' && item !== undefined && !aboveOf(item as CommentItem).every((k) => above.has(itemKey(k)));
    if (!item || orphan) return [r.id, null];
    const likersItem = likersKey(r) && (found.get(itemKey(likersKey(r)!)) as LikersView | undefined);
    if (r.targetType === 'post') return [r.id, toPost(item as PostItem, await listedLikers(item as PostItem, likersItem))];
    if (r.targetType === 'comment') return [r.id, toComment(item as CommentItem, await listedLikers(item as CommentItem, likersItem))];
    const user = item as UserItem;
    return [r.id, user.deletedAt ? null : toBaseUser(user, await listedEdges(user), false)];
  }));
  return new Map(views);
}
