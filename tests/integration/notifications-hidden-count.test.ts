// unreadCount is exactly what the list shows while a hidden user's notifications are still
// stored (the window before the stream removes them after a block, or an account's removal):
// the page leaves them out, and the count takes off those of them that are unread, by the
// stored read watermark. On the shared table, which has no stream, so nothing removes them.
import { call } from '../support/invoke';
import { users } from '../support/posts';
import { block } from '../support/graph';
import type { TestUser } from '../support/factories';
import { addNotification } from '../../lib/notifications/store';
import { handler as readH } from '../../functions/notifications/read';
import { countUnread } from '../../lib/notifications/read';
import { handler as listH } from '../../functions/notifications/list';

type Page = { notifications: { actor: { _id: string }; read: boolean }[]; unreadCount: number };
const list = async (u: TestUser) => {
  const res = await call(listH, 'GET /notifications', { token: u.token });
  expect(res.status).toBe(200);
  return res.body as Page;
};
const followed = (recipient: TestUser, actor: TestUser, n: number) =>
  addNotification({ kind: 'FOLLOW', recipientId: recipient.id, actorId: actor.id, cause: `TEST#${actor.id}#${n}` });
const tick = () => new Promise((r) => setTimeout(r, 5));

describe('unreadCount beside hidden users', () => {
  it('takes off only the hidden users\' unread notifications, by the watermark', async () => {
    const [me, blockedUser, friend] = await users(3);
    await followed(me, blockedUser, 1);
    await followed(me, friend, 1);
    await tick();
    expect((await call(readH, 'POST /notifications/read', { token: me.token })).status).toBe(200);
    await tick();
    await followed(me, blockedUser, 2);
    await followed(me, friend, 2);
    expect((await block(me, blockedUser)).status).toBe(200);

    const page = await list(me);
    // The friend's two: the newer unread, the older read; none of the blocked user's.
    expect(page.notifications.map((n) => [n.actor._id, n.read])).toEqual([[friend.id, false], [friend.id, true]]);
    // Stored: 2 unread (one each); the blocked user's unread one is taken off, its read one is not.
    expect(page.unreadCount).toBe(1);
  });

  it('with nothing marked read, every notification of a hidden user is taken off', async () => {
    const [me, blockedUser, friend] = await users(3);
    await followed(me, blockedUser, 1);
    await followed(me, blockedUser, 2);
    await followed(me, friend, 1);
    expect((await block(blockedUser, me)).status).toBe(200);
    const page = await list(me);
    expect(page.notifications.map((n) => n.actor._id)).toEqual([friend.id]);
    expect(page.unreadCount).toBe(1);
  });
});

describe('countUnread', () => {
  it('counts the sort keys after the watermark\'s millisecond', () => {
    const keys = ['2026-01-01T00:00:00.000Z#01A', '2026-01-01T00:00:00.001Z#01B', '2026-01-01T00:00:00.002Z#01C'];
    expect(countUnread(keys, undefined)).toBe(3);
    expect(countUnread(keys, '2026-01-01T00:00:00.001Z')).toBe(1);
    expect(countUnread(keys, '2026-01-01T00:00:00.000Z')).toBe(2);
    expect(countUnread(keys, '2026-01-01T00:00:00.002Z')).toBe(0);
  });
});
