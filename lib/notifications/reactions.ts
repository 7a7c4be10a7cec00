// Which changes make or undo a notification (contract section 14). Notifications are derived
// from the stored changes on the change stream, never written by the request that caused them,
// so a like or a follow answers no slower and costs no more. Each cause has one key per
// recipient (`causeOf`): liking, unliking and liking again leaves one; undoing removes it.
// None for one's own actions; none between two users with a block either way: a new one is
// checked after it is written (a block that landed meanwhile removes it), and a block removes
// those already there, in both directions. A change record may come again long after its own
// time (a dead letter redriven): a notification is kept only while the item that caused it
// stands, and an undo removes only the notification of the undone item or an older one.
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import { batchGet, itemKey } from '../db/batch';
import * as keys from '../keys';
import { INDEX } from '../keys';
import { typeOf, type Change, type Item, type Reaction } from '../events/changes';
import { addNotification, forgetExpired, removeItem, removeNotification, type NewNotification, type NotificationItem } from './store';

/** Removes every notification between two users, both ways. */
async function removeBetween(a: string, b: string): Promise<void> {
  for (const [recipient, actor] of [[a, b], [b, a]] as const) {
    let start: Record<string, unknown> | undefined;
    do {
      const res = await db.send(new QueryCommand({
        TableName: TABLE,
        IndexName: INDEX.GSI2,
        KeyConditionExpression: 'GSI2PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.notificationsFrom(recipient, actor) },
        ExclusiveStartKey: start,
      }));
      for (const n of (res.Items ?? []) as NotificationItem[]) await removeItem(n);
      start = res.LastEvaluatedKey;
    } while (start);
  }
}

const keyOf = (item: Item) => ({ PK: String(item.PK), SK: String(item.SK) });

/**
 * Adds the notification of a stored item, then drops it again if by then a block between the
 * two users stands (all of that cause), or the item is gone or made anew (that one, by its
 * createdAt): a record redriven after its undo was handled does not bring it back.
 */
async function notify(n: NewNotification, cause: Item): Promise<void> {
  if (n.recipientId === n.actorId) return;
  if (n.kind === 'MENTION' && !(await maySeeMention(n.recipientId, n.actorId, cause))) return;
  const at = String(cause.createdAt);
  // A recipient who muted the actor before the action is not told of it (contract section 18):
  // checked before the notification is written, and again after it (a mute landing between).
  const muted = async () => {
    const m = await db.send(new GetCommand({ TableName: TABLE, Key: keys.mute(n.recipientId, n.actorId), ProjectionExpression: 'createdAt', ConsistentRead: true }));
    return m.Item !== undefined && String(m.Item.createdAt) <= at;
  };
  if (await muted()) return;
  await addNotification({ ...n, causeAt: at });
  const between = [n.actorId, ...(n.kind === 'MENTION' ? aboveAuthors(cause, n.recipientId) : [])];
  const blocks = between.flatMap((a) => [keys.block(n.recipientId, a), keys.block(a, n.recipientId)]);
  // A recipient who muted the actor before the action is not told of it (contract section 18).
  const mute = keys.mute(n.recipientId, n.actorId);
  const found = await batchGet([...blocks, mute, keyOf(cause)], { projection: 'createdAt' });
  const mutedAt = (found.get(itemKey(mute)) as { createdAt?: string } | undefined)?.createdAt;
  if (blocks.some((k) => found.has(itemKey(k)))) await removeNotification(n.recipientId, n.cause);
  else if (mutedAt !== undefined && mutedAt <= at) await removeNotification(n.recipientId, n.cause, at);
  else if ((found.get(itemKey(keyOf(cause))) as { createdAt?: string } | undefined)?.createdAt !== at) await removeNotification(n.recipientId, n.cause, at);
}

/**
 * The authors above a comment or reply that mentions someone (the post's and, for a reply, the
 * parent's), other than the recipient: a block between one of them and the recipient hides it.
 */
const aboveAuthors = (cause: Item, recipientId: string): string[] =>
  cause.type === 'COMMENT'
    ? [...new Set([cause.postAuthor, cause.parentAuthor].filter((a) => a !== undefined && a !== null).map(String))].filter((a) => a !== recipientId)
    : [];

/**
 * A mention notifies only a recipient who can see the item (the post's author is the recipient,
 * public, or followed by the recipient; for a comment or reply, no block with the authors above
 * it) and has not muted the author (contract section 19); blocks with the author are checked by
 * notify like every cause's.
 */
async function maySeeMention(recipientId: string, authorId: string, cause: Item): Promise<boolean> {
  const owner = cause.type === 'COMMENT' ? String(cause.postAuthor) : authorId;
  const above = aboveAuthors(cause, recipientId);
  const blocks = above.flatMap((a) => [keys.block(recipientId, a), keys.block(a, recipientId)]);
  const found = await batchGet<{ isPrivate?: boolean }>([keys.user(owner), keys.follow(recipientId, owner), keys.mute(recipientId, authorId), ...blocks]);
  if (found.has(itemKey(keys.mute(recipientId, authorId))) || blocks.some((k) => found.has(itemKey(k)))) return false;
  return owner === recipientId || found.get(itemKey(keys.user(owner)))?.isPrivate !== true || found.has(itemKey(keys.follow(recipientId, owner)));
}

const mentionOf = (postId: string, authorId: string, recipientId: string): NewNotification =>
  ({ kind: 'MENTION', recipientId, actorId: authorId, cause: `MENTION#${postId}#${recipientId}`, postId });

const mentionIds = (item: Item | undefined): string[] => (Array.isArray(item?.mentions) ? (item!.mentions as unknown[]).map(String) : []);

/** The MENTION of a comment or reply: one cause per recipient and comment, beside its COMMENT or REPLY. */
const commentMentionOf = (item: Item, recipientId: string): NewNotification =>
  ({ kind: 'MENTION', recipientId, actorId: String(item.author), cause: `MENTION#${item.id}#${recipientId}`, postId: String(item.post), commentId: String(item.id) });

/** A caption edit (its MENTIONS item): notifies the mentions it adds, removes the notifications of those it drops. */
async function mentionEdit(c: Change): Promise<void> {
  const post = c.newImage!;
  const before = new Set(Array.isArray(post.previous) ? (post.previous as unknown[]).map(String) : []);
  const after = new Set(mentionIds(post));
  for (const id of after) if (!before.has(id)) await notify(mentionOf(String(post.id), String(post.author), id), post);
  for (const id of before) if (!after.has(id)) await removeNotification(id, mentionOf(String(post.id), String(post.author), id).cause);
}

/**
 * The notifications a stored item stands for: recipient and cause. Everything comes from the
 * item itself (a like names the liked record's author, a reply the authors it answers), so an
 * undo finds its notifications even when the post or comment above it is gone already (a
 * deleted post's likes and comments are drained after it).
 */
function causesOf(item: Item): NewNotification[] {
  switch (item.type) {
    case 'FOLLOW':
      // An approved request (contract section 18): the requester is told, the owner gets no FOLLOW.
      if (item.approved === true) {
        return [{ kind: 'FOLLOW_REQUEST_APPROVED', recipientId: String(item.followerId), actorId: String(item.followeeId), cause: `FOLLOW_REQUEST_APPROVED#${item.followeeId}` }];
      }
      return [{ kind: 'FOLLOW', recipientId: String(item.followeeId), actorId: String(item.followerId), cause: `FOLLOW#${item.followerId}` }];
    case 'FOLLOW_REQUEST':
      return [{ kind: 'FOLLOW_REQUEST', recipientId: String(item.ownerId), actorId: String(item.requesterId), cause: `FOLLOW_REQUEST#${item.requesterId}` }];
    case 'LIKE': {
      const actorId = String(item.userId);
      if (String(item.PK).startsWith('POST#')) {
        const postId = String(item.postId);
        return [{ kind: 'POST_LIKE', recipientId: String(item.postAuthor), actorId, cause: `POST_LIKE#${postId}#${actorId}`, postId }];
      }
      const commentId = String(item.targetId);
      return [{ kind: 'COMMENT_LIKE', recipientId: String(item.commentAuthor), actorId, cause: `COMMENT_LIKE#${commentId}#${actorId}`, postId: String(item.postId), commentId }];
    }
    case 'COMMENT': {
      const actorId = String(item.author);
      const commentId = String(item.id);
      const postId = String(item.post);
      const mentioned = mentionIds(item).map((id) => commentMentionOf(item, id));
      if (!item.parentComment) return [{ kind: 'COMMENT', recipientId: String(item.postAuthor), actorId, cause: `COMMENT#${commentId}`, postId, commentId }, ...mentioned];
      // A reply tells the author of the comment it is under, and the author of the reply it answers.
      const recipients = new Set([String(item.parentAuthor), ...(item.replyToAuthor ? [String(item.replyToAuthor)] : [])]);
      return [...[...recipients].map((recipientId) => ({ kind: 'REPLY' as const, recipientId, actorId, cause: `REPLY#${commentId}`, postId, commentId })), ...mentioned];
    }
    case 'POST':
      return mentionIds(item).map((id) => mentionOf(String(item.id), String(item.author), id));
    default:
      return [];
  }
}

const NOTIFYING = ['FOLLOW', 'LIKE', 'COMMENT', 'FOLLOW_REQUEST', 'POST'];

export const notificationReactions: Reaction[] = [
  {
    name: 'notify',
    matches: (c: Change) => c.event === 'INSERT' && NOTIFYING.includes(String(typeOf(c))),
    run: async (c) => { for (const n of causesOf(c.newImage!)) await notify(n, c.newImage!); },
  },
  {
    name: 'notify-undo',
    matches: (c: Change) => c.event === 'REMOVE' && NOTIFYING.includes(String(typeOf(c))),
    run: async (c) => { for (const n of causesOf(c.oldImage!)) await removeNotification(n.recipientId, n.cause, String(c.oldImage!.createdAt)); },
  },
  {
    name: 'notify-mention-edit',
    matches: (c: Change) => c.event !== 'REMOVE' && typeOf(c) === 'MENTIONS',
    run: mentionEdit,
  },
  {
    name: 'notify-expired',
    matches: (c: Change) => c.event === 'REMOVE' && c.byTtl && typeOf(c) === 'NOTIFICATION',
    run: ({ oldImage: n }) => forgetExpired({ recipientId: String(n!.recipientId), createdAt: String(n!.createdAt), id: String(n!.id) }),
  },
  {
    name: 'notify-block',
    matches: (c: Change) => c.event === 'INSERT' && typeOf(c) === 'BLOCK',
    run: ({ newImage: b }) => removeBetween(String(b!.blockerId), String(b!.blockedId)),
  },
];
