// What the change stream tells a user's live connections (contract section 20), each a
// reaction of the one stream consumer (functions/events/stream.ts):
// - `notification`: a NOTIFICATION item put (it is listed from that moment), presented as
//   GET /notifications lists it, and pushed to the user's Web Push subscriptions of its type;
// - `unread`: the recipient's NOTIF_STATE item changed its count (a notification added or
//   removed, everything marked read): the count GET /notifications answers;
// - `feed`: the fan-out copied a followed author's new post into the reader's home feed (its
//   entries carry `fanout`; the author's own entry and a follow's backfill do not). A backfill
//   that runs late (its follow's change read in the post's batch) may write the entry first:
//   the fan-out's put is then a MODIFY that adds the mark, and tells the reader just the same.
// And what ends them: a SESSION item removed (logout, session deletion, refresh-token reuse, a
// password change's purge, its expiry) closes that session's connections and deletes its
// push subscriptions; a GONE item put (suspension, deletion) closes all of the account's.
//
// Costs: every reaction starts with the one Query of the recipient's LIVE# partition and stops
// there when it is empty. Only then is anything else read: one BatchGet of the actor's item
// with the privacy keys (blocks both ways, the actor's GONE item, the recipient's mute of the
// actor) beside what the message needs. Nothing reaches a user across a block or from an
// account it muted, checked at every send (not once at connect). Sends are idempotent enough
// for at-least-once delivery: a replayed record may send a message twice, never a wrong one.
import type { Change, Reaction } from '../events/changes';
import { typeOf } from '../events/changes';
import { batchGet, itemKey, type Key } from '../db/batch';
import * as keys from '../keys';
import { presentIds } from '../graph/present';
import { blockListsOf, hiddenIds } from '../graph/hidden';
import { readNotifications } from '../notifications/read';
import type { NotificationItem } from '../notifications/store';
import { forgetConnection, targetsOf, type ConnectionItem, type PushItem } from './connections';
import { closeConnection, postToConnection } from './gateway';
import { deletePushSubscriptions, pushNotification } from './push';

export interface LiveMessage {
  type: 'notification' | 'unread' | 'feed';
  data: Record<string, unknown>;
}

/** Sends one message to each connection; a gone one (410) is forgotten. */
export async function sendAll(connections: ConnectionItem[], message: LiveMessage): Promise<void> {
  await Promise.all(connections.map(async (c) => {
    if ((await postToConnection(c.connectionId, message)) === 'gone') await forgetConnection(c.userId, c.connectionId);
  }));
}

/** The keys that say whether anything about `actorId` may reach `userId`: blocks either way, the actor hidden from everyone, the user's mute. */
const privacyKeys = (userId: string, actorId: string): Key[] =>
  [keys.block(userId, actorId), keys.block(actorId, userId), keys.gone(actorId), keys.mute(userId, actorId)];
const allowed = (userId: string, actorId: string, found: Map<string, unknown>) =>
  userId !== actorId && !privacyKeys(userId, actorId).some((k) => found.has(itemKey(k)));

async function onNotification(n: NotificationItem): Promise<void> {
  const targets = await targetsOf(n.recipientId);
  const subscriptions = targets.subscriptions.filter((s) => s.types.includes(n.kind));
  if (!targets.connections.length && !subscriptions.length) return;
  const notificationKey = keys.notification(n.recipientId, n.SK);
  const { users, found } = await presentIds([n.actorId], n.recipientId, {
    also: [...privacyKeys(n.recipientId, n.actorId), notificationKey, keys.notificationState(n.recipientId)],
  });
  const actor = users.get(n.actorId);
  // Gone again already (undone, or removed by a block that landed), or not to be shown.
  if (!actor || (found.get(itemKey(notificationKey)) as { id?: string } | undefined)?.id !== n.id || !allowed(n.recipientId, n.actorId, found)) return;
  const readUpTo = (found.get(itemKey(keys.notificationState(n.recipientId))) as { readUpTo?: string } | undefined)?.readUpTo;
  const data = {
    _id: n.id, type: n.kind, actor, post: n.postId, comment: n.commentId, createdAt: n.createdAt,
    read: readUpTo !== undefined && n.createdAt <= readUpTo,
  };
  await Promise.all([
    targets.connections.length ? sendAll(targets.connections, { type: 'notification', data }) : undefined,
    subscriptions.length ? pushNotification(subscriptions, {
      type: n.kind, notificationId: n.id, actor: { _id: actor._id, username: actor.username }, post: n.postId, comment: n.commentId,
    }) : undefined,
  ]);
}

async function onUnreadChange(userId: string): Promise<void> {
  const { connections } = await targetsOf(userId);
  if (!connections.length) return;
  // Exactly the count GET /notifications answers (hidden users' unread ones taken off).
  const page = await readNotifications({ userId, hidden: () => blockListsOf(userId).then(hiddenIds) }, 1);
  const { count } = await page.unread;
  await sendAll(connections, { type: 'unread', data: { unreadCount: count } });
}

async function onFeedEntry(readerId: string, postId: string, authorId: string): Promise<void> {
  const { connections } = await targetsOf(readerId);
  if (!connections.length) return;
  const postKey = keys.post(postId);
  const found = await batchGet([...privacyKeys(readerId, authorId), postKey], { projection: 'createdAt' });
  if (!found.has(itemKey(postKey)) || !allowed(readerId, authorId, found)) return;
  await sendAll(connections, { type: 'feed', data: { postId, author: authorId } });
}

/** Closes connections and deletes the push subscriptions of a session (or, with none named, of the whole account). */
export async function endLive(userId: string, sessionId?: string): Promise<void> {
  const targets = await targetsOf(userId);
  const ofIt = <T extends { sessionId: string }>(xs: T[]) => xs.filter((x) => sessionId === undefined || x.sessionId === sessionId);
  await Promise.all([
    ...ofIt(targets.connections).map(async (c) => {
      await closeConnection(c.connectionId);
      await forgetConnection(c.userId, c.connectionId);
    }),
    deletePushSubscriptions(ofIt<PushItem>(targets.subscriptions)),
  ]);
}

const stateChanged = (c: Change) => Number(c.oldImage?.unread ?? 0) !== Number(c.newImage?.unread ?? 0);

export const liveReactions: Reaction[] = [
  {
    name: 'live-notification',
    matches: (c) => c.event === 'INSERT' && typeOf(c) === 'NOTIFICATION',
    run: (c) => onNotification(c.newImage as unknown as NotificationItem),
  },
  {
    name: 'live-unread',
    matches: (c) => (c.event === 'INSERT' || c.event === 'MODIFY') && c.SK === keys.notificationState('').SK && stateChanged(c),
    run: (c) => onUnreadChange(c.PK.slice('USER#'.length)),
  },
  {
    name: 'live-feed',
    matches: (c) => (c.event === 'INSERT' || c.event === 'MODIFY') && typeOf(c) === 'HOME' && c.newImage?.fanout === true && c.oldImage?.fanout !== true,
    run: (c) => onFeedEntry(c.PK.slice(keys.homeFeed('').length), c.SK, String(c.newImage!.authorId)),
  },
  {
    name: 'live-session-end',
    matches: (c) => c.event === 'REMOVE' && typeOf(c) === 'SESSION',
    run: (c) => endLive(String(c.oldImage!.userId), String(c.oldImage!.id)),
  },
  {
    name: 'live-account-gone',
    matches: (c) => c.event === 'INSERT' && typeOf(c) === 'GONE',
    run: (c) => endLive(String(c.newImage!.userId)),
  },
];

