// Who may see and act on a comment (contract section 6). A comment is visible when it,
// its post and (for a reply) its parent all exist and none of their authors blocked the
// caller; the caller may act on it (comment, reply, like) when, moreover, the caller
// blocked none of them.
import { readRelations, relationKeys, type Relation } from '../graph/relations';
import { batchGet, itemKey } from '../db/batch';
import * as keys from '../keys';
import { Forbidden, NotFound } from '../errors';
import { chainAuthors, getComment, type CommentItem } from './model';

export interface Standing {
  /** Someone the content depends on blocked the caller: to the caller it does not exist. */
  hidden: boolean;
  /** The post is a private account's whose approved follower the caller is not (contract section 18): 404 to every action. */
  locked?: boolean;
  /** The caller blocked someone the content depends on. */
  blocking: boolean;
}

export function standing(rel: Map<string, Relation>, authors: string[], locked = false): Standing {
  const rs = authors.map((a) => rel.get(a));
  return { hidden: rs.some((r) => !!r?.blocksCaller), blocking: rs.some((r) => !!r?.isBlocked), locked };
}

/** 404 when hidden, 403 when the caller blocked an author of it. */
export function assertMayAct(s: Standing, what: string): void {
  if (s.hidden || s.locked) throw new NotFound(what);
  if (s.blocking) throw new Forbidden(`You blocked the author of this ${what}; unblock them to interact with it.`);
}

/** A comment and the caller's standing towards the authors it depends on. */
export interface Standpoint {
  comment: CommentItem;
  standing: Standing;
}

/**
 * The caller's standing towards a comment, for the actions on it (like, unlike, reply,
 * delete), which need no more of its post and parent than that they exist: one BatchGet after
 * the comment holds their keys beside the relation keys of the authors (the comment names the
 * post's and parent's authors). `also` names authors of other content the action touches (the
 * reply a reply answers). 404 when the comment, its post or its parent is gone.
 */
export async function resolveStandpoint(callerId: string, comment: CommentItem | undefined, also: string[] = []): Promise<Standpoint> {
  if (!comment) throw new NotFound('comment');
  const authors = [...chainAuthors(comment), ...also];
  const above = [keys.post(comment.post), ...(comment.parentComment ? [keys.comment(comment.parentComment)] : [])];
  // The post author's item (isPrivate) rides in the same BatchGet; its follow key is among the relation keys.
  const owner = comment.postAuthor && comment.postAuthor !== callerId ? [keys.user(comment.postAuthor)] : [];
  const found = await batchGet([...above, ...owner, ...relationKeys(callerId, authors)], { projection: 'createdAt, isPrivate' });
  if (above.some((k) => !found.has(itemKey(k)))) throw new NotFound('comment');
  const rel = readRelations(callerId, authors, found);
  const locked = owner.length > 0 && (found.get(itemKey(owner[0]!)) as { isPrivate?: boolean } | undefined)?.isPrivate === true
    && !rel.get(comment.postAuthor!)?.isFollowing;
  return { comment, standing: standing(rel, authors, locked) };
}

export async function loadStandpoint(callerId: string, commentId: string): Promise<Standpoint> {
  return resolveStandpoint(callerId, await getComment(commentId));
}
