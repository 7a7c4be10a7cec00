// GET /notifications and POST /notifications/read (contract section 14) with the real change
// stream: notifications are made and undone by the stream consumer, never by the request.
import '../support/own-stream-table';
import { call } from '../support/invoke';
import { makePost, users } from '../support/posts';
import { block, follow, unfollow } from '../support/graph';
import { getItem } from '../support/db';
import { changeRecord as recordOf, eventually, startTestStream, type ChangeRecord, type TestStream } from '../support/stream';
import { comment, created, reply, traceRecords, like as likeComment } from '../support/comment-api';
import type { TestUser } from '../support/factories';
import * as keys from '../../lib/keys';
import { handler as listH } from '../../functions/notifications/list';
import { handler as readH } from '../../functions/notifications/read';
import { addNotification, markAllRead, type StoredState } from '../../lib/notifications/store';
import { logItem } from '../../lib/audit/records';
import { diffState } from '../../lib/audit/diff';
import type { TraceContext } from '../../lib/audit/context';
import { handler as likeH } from '../../functions/posts/like';
import { handler as unlikeH } from '../../functions/posts/unlike';
import { handler as deleteCommentH } from '../../functions/comments/delete';
import { handler as consumer } from '../../functions/events/stream';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../../lib/db/client';
import { consumerMapping, passesFilters } from '../../scripts/lib/stream-poller.mjs';
import { ROOT } from '../../scripts/lib/manifests.mjs';
import { inFlight } from '../support/concurrency';

const FIVE_SECONDS = 5_000;
let stream: TestStream;
beforeAll(() => { stream = startTestStream(); });
afterAll(() => stream.poller.stop());
afterEach(() => expect(stream.deadLetters).toEqual([]));

type N = { _id: string; type: string; actor: { _id: string }; post: string | null; comment: string | null; read: boolean; createdAt: string };
const list = async (u: TestUser, query: Record<string, string> = {}) => {
  const res = await call(listH, 'GET /notifications', { token: u.token, query });
  expect(res.status).toBe(200);
  return res.body as { notifications: N[]; unreadCount: number; pagination: { hasMore: boolean; nextCursor: string | null } };
};
/** Waits for the list; the contract's 5 seconds are held to in the first test, the others allow more for a loaded machine. */
const until = (u: TestUser, done: (v: Awaited<ReturnType<typeof list>>) => boolean, ms = 15_000) => eventually(() => list(u), done, ms);
const likePost = (u: TestUser, postId: string) => call(likeH, 'POST /posts/like/{post_id}', { token: u.token, params: { post_id: postId } });
const unlikePost = (u: TestUser, postId: string) => call(unlikeH, 'POST /posts/unlike/{post_id}', { token: u.token, params: { post_id: postId } });

describe('notifications', () => {
  it('tells who followed me within 5 seconds; an unfollow takes it back', async () => {
    const [me, fan] = await users(2);
    await follow(fan, me);
    const page = await until(me, (v) => v.notifications.length === 1, FIVE_SECONDS);
    expect(page.unreadCount).toBe(1);
    expect(page.notifications[0]).toMatchObject({ type: 'FOLLOW', actor: { _id: fan.id, username: fan.username }, post: null, comment: null, read: false });
    expect(page.notifications[0]!.actor).not.toHaveProperty('email');
    await unfollow(fan, me);
    const after = await until(me, (v) => v.notifications.length === 0);
    expect(after).toMatchObject({ notifications: [], unreadCount: 0 });
  });

  it('likes: liking, unliking and liking again leaves one; none for my own like', async () => {
    const [me, fan] = await users(2);
    const post = await makePost(me);
    await likePost(me, post._id);
    await likePost(fan, post._id);
    expect((await until(me, (v) => v.notifications.length === 1)).notifications).toHaveLength(1);
    await unlikePost(fan, post._id);
    // The unlike takes its notification away (else the like again would find it there).
    expect(await until(me, (v) => v.notifications.length === 0)).toMatchObject({ notifications: [], unreadCount: 0 });
    await likePost(fan, post._id);
    const page = await until(me, (v) => v.notifications.length === 1);
    expect(page.notifications).toEqual([expect.objectContaining({ type: 'POST_LIKE', post: post._id, comment: null, actor: expect.objectContaining({ _id: fan.id }) })]);
    expect(page.unreadCount).toBe(1);
    // The stream settled on one notification: nothing else comes later.
    await stream.poller.idle();
    expect((await list(me)).notifications).toHaveLength(1);
  });

  it('comments, replies (to the comment and to the reply answered) and comment likes; deleting the comment takes its notifications', async () => {
    const [author, commenter, replier, liker] = await users(4);
    const post = await makePost(author);
    const c = created(await comment(commenter, post._id, 'nice'));
    const r1 = created(await reply(liker, c._id, { text: 'first reply' }));
    const r2 = created(await reply(replier, c._id, { text: 'answering the first reply', replyTo: r1._id }));
    expect((await likeComment(liker, c._id)).status).toBe(200);
    const mine = await until(author, (v) => v.notifications.length === 1);
    expect(mine.notifications[0]).toMatchObject({ type: 'COMMENT', post: post._id, comment: c._id, actor: { _id: commenter.id } });
    const theirs = await until(commenter, (v) => v.notifications.length === 3);
    expect(theirs.notifications.map((n) => [n.type, n.comment, n.actor._id])).toEqual([
      ['COMMENT_LIKE', c._id, liker.id], ['REPLY', r2._id, replier.id], ['REPLY', r1._id, liker.id],
    ]);
    const answered = await until(liker, (v) => v.notifications.length === 1);
    expect(answered.notifications[0]).toMatchObject({ type: 'REPLY', comment: r2._id, post: post._id, actor: { _id: replier.id } });
    expect((await call(deleteCommentH, 'DELETE /comments/{comment_id}', { token: commenter.token, params: { comment_id: c._id } })).status).toBe(200);
    await until(author, (v) => v.notifications.length === 0);
    expect((await list(author)).unreadCount).toBe(0);
  });

  it('none from either side of a block, at once, and those already there go', async () => {
    const [me, fan, friend] = await users(3);
    await follow(fan, me);
    await follow(friend, me);
    await until(me, (v) => v.notifications.length === 2);
    expect((await block(me, fan)).status).toBe(200);
    const page = await list(me);
    expect(page.notifications.map((n) => n.actor._id)).toEqual([friend.id]);
    // The count is exact once the block's removals have run: while the stream removes the
    // blocked user's notifications, a read can fall between its count and its index reads
    // (docs/ARCHITECTURE.md, "Notifications").
    await stream.poller.idle();
    // Stored ones go too, and the count stays what the list shows.
    await eventually(() => getItem(keys.notification(me.id, `FOLLOW#${fan.id}`)), (v) => v === undefined);
    expect(await getItem(keys.notification(me.id, `FOLLOW#${fan.id}`))).toBeUndefined();
    expect((await list(me)).unreadCount).toBe(1);
  });

  it('marks everything so far as read; what comes after is unread', async () => {
    const [me, a, b] = await users(3);
    await follow(a, me);
    await until(me, (v) => v.unreadCount === 1);
    const stored = await getItem(keys.notificationState(me.id));
    const res = await call(readH, 'POST /notifications/read', { token: me.token, headers: { 'X-Trace-Id': `read-${me.id}` } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, unreadCount: 0 });
    // Its trace record (contract section 9): the state item's fields, before and after.
    const after = await getItem(keys.notificationState(me.id));
    expect(await traceRecords(`read-${me.id}`)).toEqual([expect.objectContaining({
      level: 'INFO',
      action: { type: 'NOTIFICATIONS_READ', description: expect.any(String) },
      actor: { type: 'user', id: me.id },
      stateDiff: { changes: ['unread', 'readUpTo'], before: { unread: 1 }, after: { unread: 0, readUpTo: after!.readUpTo } },
    })]);
    expect(stored).not.toHaveProperty('readUpTo');
    expect(await list(me)).toMatchObject({ unreadCount: 0, notifications: [expect.objectContaining({ read: true })] });
    await follow(b, me);
    const page = await until(me, (v) => v.notifications.length === 2);
    expect(page.unreadCount).toBe(1);
    expect(page.notifications.map((n) => n.read)).toEqual([false, true]);
  });

  it('keeps unreadCount exact under 50 likes from 50 users racing 5 at a time on one post, and pages through all of them', async () => {
    const [me] = await users(1);
    const post = await makePost(me);
    // Registered ten at a time (scrypt is CPU work); the likes are the simultaneous part.
    const fans: TestUser[] = [];
    for (let i = 0; i < 5; i++) fans.push(...(await users(10)));
    // Transactions racing on one post item, 5 in flight (conflicts are retried inside the data
    // layer, and a hot post's likes skip the optimistic count: lib/db/transact.ts). Known and
    // open (docs/PERFORMANCE.md, "A hot post"): with 25 in flight, in full runs where the feed
    // suite shared DynamoDB Local, up to 49 of 50 likes outlived their 10 s and their storm
    // starved that suite too; alone, 50 at once all answer (the benchmark's hot post). A like
    // that still times out is retried once, as an app does (a like is idempotent): what this
    // test holds is that every like lands once and the notifications count exactly.
    const answers = await inFlight(5, fans.map((f) => () => likePost(f, post._id)));
    for (const [i, a] of answers.entries()) {
      if (a.status === 200) continue;
      expect(a.status).toBe(500);
      expect((await likePost(fans[i]!, post._id)).status).toBe(200);
    }
    for (const a of answers.filter((x) => x.status === 200)) expect(a.body.likesCount).toBeGreaterThanOrEqual(1);
    const page = await until(me, (v) => v.unreadCount === 50, 30_000);
    expect(page.unreadCount).toBe(50);
    const seen: N[] = [];
    let cursor: string | null = null;
    do {
      const p = await list(me, { limit: '15', ...(cursor ? { cursor } : {}) });
      seen.push(...p.notifications);
      cursor = p.pagination.hasMore ? p.pagination.nextCursor : null;
    } while (cursor);
    expect(seen).toHaveLength(50);
    expect(new Set(seen.map((n) => n.actor._id))).toEqual(new Set(fans.map((f) => f.id)));
    expect(seen.map((n) => `${n.createdAt}#${n._id}`)).toEqual(seen.map((n) => `${n.createdAt}#${n._id}`).sort().reverse());
  }, 90_000);

  it('expire after 90 days (TTL) and refuse a malformed cursor or limit', async () => {
    const [me, fan] = await users(2);
    await follow(fan, me);
    await until(me, (v) => v.notifications.length === 1);
    const item = await getItem(keys.notification(me.id, `FOLLOW#${fan.id}`));
    expect(Number(item!.expiresAt)).toBe(Math.floor(Date.parse(String(item!.createdAt)) / 1000) + 90 * 86_400);
    for (const query of [{ cursor: 'nope' }, { limit: '0' }, { limit: '51' }] as Record<string, string>[]) {
      const res = await call(listH, 'GET /notifications', { token: me.token, query });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
  });

  it('an unread notification that DynamoDB expires (TTL) leaves the count', async () => {
    const [me, fan] = await users(2);
    await follow(fan, me);
    await until(me, (v) => v.unreadCount === 1);
    const key = keys.notification(me.id, `FOLLOW#${fan.id}`);
    const item = (await getItem(key))!;
    // DynamoDB Local never expires items: the deletion and its stream record are made here,
    // the record as DynamoDB's TTL writes it (its userIdentity is the service).
    await db.send(new DeleteCommand({ TableName: TABLE, Key: key }));
    const record = recordOf('REMOVE', item, { byTtl: true });
    expect(passesFilters(record, consumerMapping(ROOT).filterPatterns)).toBe(true);
    // The same removal made by a request reaches the consumer too (one REMOVE filter serves every
    // type, within Lambda's five filters per mapping), and no reaction recounts for it: the
    // request that removed a notification moved the count itself.
    const byRequest = { ...record, userIdentity: undefined };
    expect(passesFilters(byRequest, consumerMapping(ROOT).filterPatterns)).toBe(true);
    expect(await consumer({ Records: [byRequest as never] })).toEqual({ batchItemFailures: [] });
    expect((await getItem(keys.notificationState(me.id)))?.unread).toBe(1);
    expect(await consumer({ Records: [record as never] })).toEqual({ batchItemFailures: [] });
    expect(await list(me)).toMatchObject({ notifications: [], unreadCount: 0 });
    // A batch is retried from its first failed record on: the same record again, twice,
    // changes nothing. The stored count, not the answer (which never shows less than 0).
    for (let i = 0; i < 2; i++) expect(await consumer({ Records: [record as never] })).toEqual({ batchItemFailures: [] });
    expect(await getItem(keys.notificationState(me.id))).toMatchObject({ unread: 0 });
    // So the next notification counts.
    const [other] = await users(1);
    await follow(other, me);
    await until(me, (v) => v.notifications.length === 1);
    expect(await list(me)).toMatchObject({ unreadCount: 1 });
    expect(await getItem(keys.notificationState(me.id))).toMatchObject({ unread: 1 });
  });
});

describe('marking read, racing a new notification', () => {
  /**
   * Marks everything read (a minute ahead, so every notification so far is before the mark)
   * with \`arrive\` run before each of the mark's transactions; the state each attempt replaced.
   */
  async function markWhile(userId: string, traceCtx: TraceContext, arrive: () => Promise<void>, at = new Date(Date.now() + 60_000).toISOString()): Promise<StoredState[]> {
    const send = db.send.bind(db);
    type Sent = { constructor: { name: string }; input?: { TransactItems?: { Update?: { UpdateExpression?: string } }[] } };
    const isMark = (command: Sent) =>
      command.constructor.name === 'TransactWriteCommand' && command.input?.TransactItems?.[0]?.Update?.UpdateExpression?.startsWith('SET readUpTo') === true;
    const spy = jest.spyOn(db, 'send').mockImplementation((async (command: Sent, ...rest: unknown[]) => {
      if (isMark(command)) await arrive();
      return (send as (...a: unknown[]) => Promise<unknown>)(command, ...rest);
    }) as typeof db.send);
    const seen: StoredState[] = [];
    try {
      await markAllRead(userId, (before, after) => {
        seen.push(before);
        return logItem(traceCtx, { type: 'NOTIFICATIONS_READ', description: 'test', actorId: userId, diff: diffState(before, after) });
      }, { now: at });
    } finally {
      spy.mockRestore();
    }
    return seen;
  }
  it('records the state it replaced: a notification that lands between the read and the write makes the mark go again from the new state', async () => {
    const [me, fan] = await users(2);
    const traceCtx = { traceId: `race-${me.id}`, scenarioId: '', stepId: '', simTimestamp: Date.now() };
    let landed = false;
    // The notification lands after the mark's read, before its first transaction.
    const seen = await markWhile(me.id, traceCtx, async () => {
      if (landed) return;
      landed = true;
      await addNotification({ kind: 'FOLLOW', recipientId: me.id, actorId: fan.id, cause: `TEST#${fan.id}` });
    });
    expect(seen).toEqual([{}, { unread: 1 }]);
    expect(await getItem(keys.notificationState(me.id))).toMatchObject({ unread: 0 });
    const records = await traceRecords(traceCtx.traceId) as { stateDiff: unknown }[];
    expect(records.map((r) => r.stateDiff)).toEqual([{ changes: ['unread', 'readUpTo'], before: { unread: 1 }, after: { unread: 0, readUpTo: expect.any(String) } }]);
  });

  it('a recipient whose notifications keep arriving still gets its mark: after the exact attempts, one without the condition', async () => {
    const [me] = await users(1);
    const traceCtx = { traceId: `storm-${me.id}`, scenarioId: '', stepId: '', simTimestamp: Date.now() };
    let arrivals = 0;
    // A notification lands before every transaction the mark sends.
    const seen = await markWhile(me.id, traceCtx, async () => {
      if (arrivals >= 20) return;
      arrivals++;
      await addNotification({ kind: 'FOLLOW', recipientId: me.id, actorId: `A${arrivals}`, cause: `TEST#storm#${arrivals}` });
    });
    // Each attempt met one more notification; the last wrote anyway.
    expect(seen.map((b) => b.unread ?? 0)).toEqual(Array.from({ length: seen.length }, (_, i) => i));
    expect(seen.length).toBeGreaterThan(2);
    expect(await getItem(keys.notificationState(me.id))).toMatchObject({ unread: 0 });
    expect(await traceRecords(traceCtx.traceId)).toHaveLength(1);
  });

  it('a notification that made an attempt fail is read by the next one, though it came after the moment the mark began', async () => {
    const [me] = await users(1);
    const traceCtx = { traceId: `fresh-${me.id}`, scenarioId: '', stepId: '', simTimestamp: Date.now() };
    let landed = false;
    // The mark began a second ago; the notification lands (createdAt: now) before its first write.
    const seen = await markWhile(me.id, traceCtx, async () => {
      if (landed) return;
      landed = true;
      await addNotification({ kind: 'FOLLOW', recipientId: me.id, actorId: 'FRESHFAN', cause: `TEST#fresh#${me.id}` });
    }, new Date(Date.now() - 1_000).toISOString());
    expect(seen).toEqual([{}, { unread: 1 }]);
    // Before, the retry kept the first moment: unread 0, the notification listed unread.
    const state = await getItem(keys.notificationState(me.id));
    expect(state).toMatchObject({ unread: 0 });
    const n = await getItem(keys.notification(me.id, `TEST#fresh#${me.id}`));
    expect(n).toBeDefined();
    expect(String(state!.readUpTo) >= String(n!.createdAt)).toBe(true);
  });

  it('never moves the watermark back: a mark of an earlier moment, after a later one stands, changes nothing and writes its record', async () => {
    const [me] = await users(1);
    const mark = (now: string, traceId: string) => {
      const traceCtx = { traceId, scenarioId: '', stepId: '', simTimestamp: Date.now() };
      return markAllRead(me.id, (before, after) => logItem(traceCtx, { type: 'NOTIFICATIONS_READ', description: 'test', actorId: me.id, diff: diffState(before, after) }), { now });
    };
    // Device B marks at t2; a notification comes after it; device A's mark, started at t1 < t2, writes last.
    const t2 = new Date().toISOString();
    await mark(t2, `late-b-${me.id}`);
    await new Promise((r) => setTimeout(r, 5));
    await addNotification({ kind: 'FOLLOW', recipientId: me.id, actorId: 'LATEFAN', cause: `TEST#late#${me.id}` });
    expect(await getItem(keys.notificationState(me.id))).toMatchObject({ unread: 1, readUpTo: t2 });
    await mark(new Date(Date.parse(t2) - 60_000).toISOString(), `late-a-${me.id}`);
    // Before, A set readUpTo back to t1 and unread to 0: the notifications of (t1, t2] were listed unread, uncounted.
    expect(await getItem(keys.notificationState(me.id))).toMatchObject({ unread: 1, readUpTo: t2 });
    expect((await traceRecords(`late-a-${me.id}`) as { stateDiff: { changes: string[] } }[]).map((r) => r.stateDiff.changes)).toEqual([[]]);
  });
});

describe('change records redriven late (a dead letter sent back)', () => {
  const deliver = async (record: ChangeRecord) => expect(await consumer({ Records: [record as never] })).toEqual({ batchItemFailures: [] });

  it('a follow\'s record after its unfollow was handled does not bring its notification back', async () => {
    const [me, fan] = await users(2);
    await follow(fan, me);
    await until(me, (v) => v.notifications.length === 1);
    const edge = (await getItem(keys.follow(fan.id, me.id)))!;
    await unfollow(fan, me);
    await until(me, (v) => v.notifications.length === 0 && v.unreadCount === 0);
    await deliver(recordOf('INSERT', edge));
    expect(await list(me)).toMatchObject({ notifications: [], unreadCount: 0 });
    expect(await getItem(keys.notification(me.id, `FOLLOW#${fan.id}`))).toBeUndefined();
  });

  it('an unfollow\'s record after the user followed again leaves the new follow\'s notification', async () => {
    const [me, fan] = await users(2);
    await follow(fan, me);
    await until(me, (v) => v.notifications.length === 1);
    const first = (await getItem(keys.follow(fan.id, me.id)))!;
    await unfollow(fan, me);
    await until(me, (v) => v.notifications.length === 0);
    await follow(fan, me);
    const again = await until(me, (v) => v.notifications.length === 1);
    await deliver(recordOf('REMOVE', first));
    expect(await list(me)).toMatchObject({ notifications: [{ _id: again.notifications[0]!._id }], unreadCount: 1 });
    // The undo of the follow that stands still removes it.
    await deliver(recordOf('REMOVE', (await getItem(keys.follow(fan.id, me.id)))!));
    expect(await list(me)).toMatchObject({ notifications: [], unreadCount: 0 });
  });
});
