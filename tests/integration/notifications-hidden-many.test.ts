// The unread count when many users are hidden from the caller. Every suspended account of a
// stage is hidden from everyone, and its notifications stay while it is suspended; the count
// must stay exact without one request per hidden user (lib/notifications/read.ts): up to
// PER_ACTOR_MAX hidden users, one GSI2 Query each; beyond, the page's own reads when they
// reached back past the read watermark, or else one Query of the caller's unread
// notifications. A table of its own: the GONE partition is table-wide state.
import '../support/own-table';
import { call } from '../support/invoke';
import { users } from '../support/posts';
import { block } from '../support/graph';
import type { TestUser } from '../support/factories';
import { addNotification } from '../../lib/notifications/store';
import { handler as readH } from '../../functions/notifications/read';
import { PER_ACTOR_MAX, UNREAD_PER_ACTOR, hiddenUnreadSeen } from '../../lib/notifications/read';
import { suspendAccount, unsuspendAccount } from '../../lib/account/suspend';
import { getUser } from '../../lib/users/repo';
import { requestsOf } from '../support/db';
import { handler as listH } from '../../functions/notifications/list';

type Page = { notifications: { actor: { _id: string }; read: boolean }[]; unreadCount: number; pagination: { hasMore: boolean; nextCursor: string | null } };
const list = async (u: TestUser, query?: Record<string, string>) => {
  const res = await call(listH, 'GET /notifications', { token: u.token, query });
  expect(res.status).toBe(200);
  return res.body as Page;
};
let n = 0;
const notify = (recipient: TestUser, actor: TestUser) =>
  addNotification({ kind: 'FOLLOW', recipientId: recipient.id, actorId: actor.id, cause: `TEST#${actor.id}#${++n}` });
const tick = () => new Promise((r) => setTimeout(r, 5));
/** Everything so far read, in a millisecond of its own (the watermark is a time). */
const readAllNow = async (u: TestUser) => {
  await tick();
  expect((await call(readH, 'POST /notifications/read', { token: u.token })).status).toBe(200);
  await tick();
};
const trace = (stepId: string) => ({ traceId: `hidden-many-${stepId}`, scenarioId: 'test', stepId, simTimestamp: Date.now() });
const suspend = async (u: TestUser, moderator: TestUser) => suspendAccount((await getUser(u.id))!, moderator.id, trace(`suspend-${u.id}`), {});
const unsuspend = async (u: TestUser, moderator: TestUser) => unsuspendAccount((await getUser(u.id))!, moderator.id, trace(`unsuspend-${u.id}`), {});

const perActorQueries = (inputs: Record<string, unknown>[]) => inputs.filter((i) => i.IndexName === 'GSI2' && i.ProjectionExpression === 'GSI2SK').length;
const unreadQueries = (inputs: Record<string, unknown>[]) => inputs.filter((i) => i.IndexName === 'GSI1' && i.ProjectionExpression === 'actorId').length;

/**
 * `count` accounts suspended (by a moderator, through lib/account/suspend.ts) for the
 * describe block that calls it, and unsuspended after it: the array fills in its beforeAll.
 */
function suspendedForThisBlock(count: number): TestUser[] {
  const suspended: TestUser[] = [];
  let moderator: TestUser;
  beforeAll(async () => {
    [moderator] = await users(1);
    suspended.push(...(await users(count)));
    for (const s of suspended) await suspend(s, moderator);
  });
  afterAll(async () => {
    for (const s of suspended) await unsuspend(s, moderator);
  });
  return suspended;
}

describe('unreadCount with few hidden users', () => {
  it('counts a blocked user\'s unread notifications with one GSI2 Query, beside the stored count', async () => {
    const [me, blockedUser, friend] = await users(3);
    await notify(me, blockedUser);
    await notify(me, friend);
    expect((await block(me, blockedUser)).status).toBe(200);
    const { result: page, inputs } = await requestsOf(() => list(me));
    expect(page.notifications.map((x) => x.actor._id)).toEqual([friend.id]);
    expect(page.unreadCount).toBe(1);
    expect(perActorQueries(inputs)).toBe(1);
    expect(unreadQueries(inputs)).toBe(0);
  });
});

describe('unreadCount with more hidden users than PER_ACTOR_MAX (suspended accounts)', () => {
  const suspended = suspendedForThisBlock(PER_ACTOR_MAX + 2);

  it('takes the hidden users\' unread ones from the page\'s own reads when they reached past the watermark: no request per hidden user', async () => {
    const [me, friend] = await users(2);
    const [s0] = suspended;
    await notify(me, s0!);
    await readAllNow(me);
    await notify(me, s0!);
    await notify(me, friend);
    await notify(me, friend);

    const { result: page, inputs } = await requestsOf(() => list(me));
    expect(page.notifications.map((x) => [x.actor._id, x.read])).toEqual([[friend.id, false], [friend.id, false]]);
    // Stored: 3 unread; the suspended account's unread one is taken off, its read one is not.
    expect(page.unreadCount).toBe(2);
    expect(perActorQueries(inputs)).toBe(0);
    expect(unreadQueries(inputs)).toBe(0);
  });

  it('counts from reads that stopped at a read notification with more left, and from a hidden one the page\'s loop never reached', async () => {
    const [me, friend] = await users(2);
    const [, , s2, s3] = suspended;
    // Newest first: s3, f1, f2, s2 (unread); then 30 read ones. With limit 1 the first read
    // (2 items) shows f1 only; the second (25 items) shows f2 and stops the loop there, with
    // s2 and 23 read ones read but never looked at, and 7 read ones left in the index.
    for (let i = 0; i < 30; i++) await notify(me, friend);
    await readAllNow(me);
    await notify(me, s2!);
    await notify(me, friend);
    await notify(me, friend);
    await notify(me, s3!);

    const { result: page, inputs } = await requestsOf(() => list(me, { limit: '1' }));
    expect(page.notifications.map((x) => x.actor._id)).toEqual([friend.id]);
    expect(page.pagination.hasMore).toBe(true);
    // Stored: 4 unread; both suspended accounts' are taken off, counted from the reads alone.
    expect(page.unreadCount).toBe(2);
    expect(perActorQueries(inputs)).toBe(0);
    expect(unreadQueries(inputs)).toBe(0);
  });

  it('sends nothing more for a page past the first when nothing is unread', async () => {
    const [me, friend] = await users(2);
    for (let i = 0; i < 12; i++) await notify(me, friend);
    await readAllNow(me);
    const first = await list(me, { limit: '5' });
    const { result: next, inputs } = await requestsOf(() => list(me, { limit: '5', cursor: first.pagination.nextCursor! }));
    expect(next.notifications).toHaveLength(5);
    expect(next.unreadCount).toBe(0);
    expect(perActorQueries(inputs)).toBe(0);
    expect(unreadQueries(inputs)).toBe(0);
  });

  it('reads the caller\'s unread ones once (actor ids only) when they go past the page, by the watermark', async () => {
    const [me, friend] = await users(2);
    const [, s1] = suspended;
    await notify(me, s1!);
    await readAllNow(me);
    await notify(me, s1!);
    for (let i = 0; i < 12; i++) await notify(me, friend);

    const { result: page, inputs } = await requestsOf(() => list(me, { limit: '5' }));
    expect(page.notifications.map((x) => x.actor._id)).toEqual(Array(5).fill(friend.id));
    expect(page.pagination.hasMore).toBe(true);
    // Stored: 13 unread; the suspended account's one after the watermark is taken off, the one before it is not.
    expect(page.unreadCount).toBe(12);
    expect(perActorQueries(inputs)).toBe(0);
    expect(unreadQueries(inputs)).toBe(1);

    // A later page starts below the newest: the same count, by the same one Query.
    const next = await requestsOf(() => list(me, { limit: '5', cursor: page.pagination.nextCursor! }));
    expect(next.result.unreadCount).toBe(12);
    expect(unreadQueries(next.inputs)).toBe(1);
    expect(perActorQueries(next.inputs)).toBe(0);
  });

  it('counts with the Query per hidden user when reading the unread ones would cost more', async () => {
    const [me, friend] = await users(2);
    const [s0] = suspended;
    await notify(me, s0!);
    const many = UNREAD_PER_ACTOR * suspended.length + 1;
    for (let i = 0; i < many; i++) await notify(me, friend);
    const { result: page, inputs } = await requestsOf(() => list(me, { limit: '5' }));
    expect(page.unreadCount).toBe(many);
    expect(unreadQueries(inputs)).toBe(0);
    expect(perActorQueries(inputs)).toBe(suspended.length);
  });
});

describe('hiddenUnreadSeen', () => {
  const seen = [
    { sk: '2026-01-01T00:00:00.003Z#03', actorId: 'h' },
    { sk: '2026-01-01T00:00:00.002Z#02', actorId: 'f' },
    { sk: '2026-01-01T00:00:00.001Z#01', actorId: 'h' },
  ];
  const hidden = new Set(['h']);
  it('counts only when the reads began at the newest and reached the end or the watermark', () => {
    expect(hiddenUnreadSeen(seen, hidden, '2026-01-01T00:00:00.001Z', true, false)).toBe(1);
    expect(hiddenUnreadSeen(seen, hidden, undefined, true, true)).toBe(2);
    expect(hiddenUnreadSeen(seen, hidden, '2026-01-01T00:00:00.000Z', true, true)).toBe(2);
  });
  it('answers undefined when an unread one may lie beyond the reads', () => {
    expect(hiddenUnreadSeen(seen, hidden, undefined, true, false)).toBeUndefined();
    expect(hiddenUnreadSeen(seen, hidden, '2026-01-01T00:00:00.000Z', true, false)).toBeUndefined();
    expect(hiddenUnreadSeen(seen, hidden, '2026-01-01T00:00:00.001Z', false, false)).toBeUndefined();
  });
});
