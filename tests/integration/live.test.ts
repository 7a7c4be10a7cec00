// Live updates (contract section 20) from the real change stream to a stand-in Management API:
// what each connection receives, privacy at every send, closing on a session's end, and costs.
import '../support/own-stream-table';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { call } from '../support/invoke';
import { users } from '../support/posts';
import { block, follow } from '../support/graph';
import { makePost } from '../support/posts';
import { eventually, startTestStream, type TestStream } from '../support/stream';
import { startTestGateway, type TestGateway } from '../support/live-gateway';
import { requestsOf, getItem } from '../support/db';
import type { TestUser } from '../support/factories';
import * as keys from '../../lib/keys';
import { db, TABLE } from '../../lib/db/client';
import { putConnection } from '../../lib/live/connections';
import { homeEntry } from '../../lib/posts/home-entry';
import { liveReactions } from '../../lib/live/reactions';
import type { Change } from '../../lib/events/changes';
import { handler as listH } from '../../functions/notifications/list';
import { handler as logoutH } from '../../functions/auth/logout';

let stream: TestStream;
let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
  process.env.WEBSOCKET_API_ENDPOINT = gw.url;
  stream = startTestStream();
});
afterAll(async () => { await stream.poller.stop(); await gw.stop(); delete process.env.WEBSOCKET_API_ENDPOINT; });
afterEach(() => expect(stream.deadLetters).toEqual([]));

let n = 0;
async function connect(u: TestUser, sessionId = u.sessionId): Promise<string> {
  const id = `conn-${++n}-${u.id}`;
  gw.open.add(id);
  await putConnection(u.id, sessionId, id);
  return id;
}
const got = (id: string, type: string) => (gw.received.get(id) ?? []).filter((m) => m.type === type);
const until = <T>(read: () => T, done: (v: T) => boolean) => eventually(async () => read(), done, 15_000);
/** The mute edge of contract section 18 (issue 44's key), as a factory writes it. */
const mute = (muter: TestUser, muted: TestUser) =>
  db.send(new PutCommand({ TableName: TABLE, Item: { ...keys.mute(muter.id, muted.id), type: 'MUTE', createdAt: new Date().toISOString() } }));

describe('live messages', () => {
  it('sends a notification as GET /notifications lists it, and the unread count, to every connection', async () => {
    const [me, fan] = await users(2);
    const [a, b] = [await connect(me), await connect(me)];
    await follow(fan, me);
    await until(() => got(b, 'notification'), (v) => v.length === 1);
    const listed = (await call(listH, 'GET /notifications', { token: me.token })).body.notifications;
    expect(got(a, 'notification')).toEqual([{ type: 'notification', data: listed[0] }]);
    expect(got(b, 'notification')).toEqual(got(a, 'notification'));
    await until(() => got(a, 'unread'), (v) => v.some((m) => m.data.unreadCount === 1));
  });

  it('sends nothing about an account the user muted, or across a block', async () => {
    const [me, muted, blocked, other] = await users(4);
    await mute(me, muted);
    await block(me, blocked);
    const c = await connect(me);
    await follow(muted, me);
    await follow(other, me);
    await until(() => got(c, 'notification'), (v) => v.some((m) => m.data.actor._id === other.id));
    expect(got(c, 'notification').map((m) => m.data.actor._id)).toEqual([other.id]);
  });

  it("tells a follower of the followed author's new post; the author's own entry tells nobody", async () => {
    const [reader, author, mutingReader] = await users(3);
    await follow(reader, author);
    await follow(mutingReader, author);
    await mute(mutingReader, author);
    const [r, a, m] = [await connect(reader), await connect(author), await connect(mutingReader)];
    const post = await makePost(author);
    // Two passes of the stream (the post's fan-out, then its feed entry): a liveness bound for a
    // loaded 2-core machine, not the contract's timing (that is the bench's).
    await eventually(async () => got(r, 'feed'), (v) => v.length === 1, 30_000);
    expect(got(r, 'feed')).toEqual([{ type: 'feed', data: { postId: post._id, author: author.id } }]);
    expect(got(a, 'feed')).toEqual([]);
    expect(got(m, 'feed')).toEqual([]);
  });

  it("tells the reader when a follow's late backfill wrote the new post's entry before the fan-out", async () => {
    const [reader, author] = await users(2);
    const r = await connect(reader);
    const post = await makePost(author); // no follower yet: its fan-out writes nothing
    await stream.poller.idle();
    // The backfill's entry (no mark), then the fan-out's over it: a MODIFY that adds the mark.
    await db.send(new PutCommand({ TableName: TABLE, Item: homeEntry(reader.id, post._id, author.id) }));
    await stream.poller.idle();
    expect(got(r, 'feed')).toEqual([]);
    await db.send(new PutCommand({ TableName: TABLE, Item: { ...homeEntry(reader.id, post._id, author.id), fanout: true } }));
    await until(() => got(r, 'feed'), (v) => v.length === 1);
    expect(got(r, 'feed')).toEqual([{ type: 'feed', data: { postId: post._id, author: author.id } }]);
    // A change of an entry that already had the mark tells nobody again.
    await db.send(new PutCommand({ TableName: TABLE, Item: { ...homeEntry(reader.id, post._id, author.id), fanout: true, seen: 1 } }));
    await stream.poller.idle();
    expect(got(r, 'feed')).toHaveLength(1);
  });
});

describe('closing', () => {
  it("closes the connections of a session that ends, not the user's other session's", async () => {
    const [me] = await users(1);
    const ending = await connect(me);
    const other = await connect(me, 'OTHERSESSION');
    expect((await call(logoutH, 'POST /auth/logout', { token: me.token })).status).toBe(200);
    await until(() => gw.closed, (v) => v.includes(ending));
    expect(gw.closed).not.toContain(other);
    expect(await getItem(keys.connection(me.id, ending))).toBeUndefined();
    expect(await getItem(keys.connection(me.id, other))).toBeDefined();
  });

  it('forgets a gone connection (410) at the first send', async () => {
    const [me, fan] = await users(2);
    const gone = await connect(me);
    gw.open.delete(gone);
    await follow(fan, me);
    await eventually(() => getItem(keys.connection(me.id, gone)), (v) => v === undefined, 15_000);
  });
});

describe('costs', () => {
  const change = (item: Record<string, unknown>): Change => ({ event: 'INSERT', PK: String(item.PK), SK: String(item.SK), newImage: item, sequenceNumber: '1', byTtl: false });
  const run = (c: Change) => Promise.all(liveReactions.filter((r) => r.matches(c)).map((r) => r.run(c)));
  const notification = (to: TestUser, from: TestUser) => ({
    ...keys.notification(to.id, `FOLLOW#${from.id}`), type: 'NOTIFICATION', kind: 'FOLLOW', id: `01J${String(++n).padStart(23, '0')}`,
    recipientId: to.id, actorId: from.id, postId: null, commentId: null, createdAt: new Date().toISOString(),
  });

  it('costs one Query for a user with no connection and no subscription', async () => {
    const [me, fan] = await users(2);
    // The stream's own reactions to the registrations (verification mail) are done first: they
    // would be counted too.
    await stream.poller.idle();
    const { inputs } = await requestsOf(() => run(change(notification(me, fan))));
    expect(inputs).toHaveLength(1);
    expect(inputs[0]).toMatchObject({ KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': keys.live(me.id) } });
  });

  it('sends a burst to 5 connections with one Query and 5 sends', async () => {
    const [me, fan] = await users(2);
    const conns = [];
    for (let i = 0; i < 5; i++) conns.push(await connect(me));
    const item = notification(me, fan);
    // Stored as listed (the reaction checks it is still there), under another type so that this
    // file's own stream leaves it alone: the reaction below is the only one to send it.
    await db.send(new PutCommand({ TableName: TABLE, Item: { ...item, type: 'NOTIFICATION_COPY' } }));
    await stream.poller.idle();
    const before = gw.posts;
    const { inputs } = await requestsOf(() => run(change(item)));
    expect(inputs.filter((i) => 'KeyConditionExpression' in i)).toHaveLength(1);
    expect(gw.posts - before).toBe(5);
  });
});
