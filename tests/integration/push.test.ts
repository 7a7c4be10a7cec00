// Web Push (contract section 20) from the real change stream to a running `web-push-testing`
// service, which checks the VAPID signature and decrypts each message (RFC 8291 aes128gcm): the
// subscription routes, what is pushed and to whom, subscriptions a push service says are gone,
// subscriptions ending with their session, and retries through the pushRetry function.
import '../support/own-stream-table';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { call } from '../support/invoke';
import { users } from '../support/posts';
import { follow } from '../support/graph';
import { eventually, startTestStream, type TestStream } from '../support/stream';
import { getItem } from '../support/db';
import { PUSH_SUBSCRIPTION } from '../support/routes';
import type { TestUser } from '../support/factories';
import * as keys from '../../lib/keys';
import { freePort } from '../../scripts/lib/local-dynamodb.mjs';
import { vapidKeys } from '../../lib/live/vapid';
import { PUSH_ATTEMPTS, type PushRetry } from '../../lib/live/push';
import { handler as vapidH } from '../../functions/push/vapid-key';
import { handler as subscribeH } from '../../functions/push/subscribe';
import { handler as listH } from '../../functions/push/list';
import { handler as deleteH } from '../../functions/push/delete';
import { handler as logoutH } from '../../functions/auth/logout';
import { handler as retryH } from '../../functions/live/retry';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { PushApiModel } = require('web-push-testing/src/PushApiModel');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const WebPushTestingServer = require('web-push-testing/src/server');

let stream: TestStream;
let pushService: { _server: Server; startServer(): void };
let pushBase: string;
/** A stand-in for Lambda's Invoke API (InvocationType Event): answers 202 and runs pushRetry in this process, as Lambda would. */
let invoke: Server;
const retries: PushRetry[] = [];
const failedRetries: string[] = [];

beforeAll(async () => {
  const port = await freePort();
  pushService = new WebPushTestingServer(new PushApiModel(), port);
  pushService.startServer();
  pushBase = `http://localhost:${port}`;
  invoke = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const ok = /\/functions\/aperture-local-pushRetry\/invocations$/.test(req.url ?? '') && req.headers['x-amz-invocation-type'] === 'Event';
      res.writeHead(ok ? 202 : 404).end();
      if (!ok) return;
      const event = JSON.parse(Buffer.concat(chunks).toString()) as PushRetry;
      retries.push(event);
      retryH(event).catch((err: Error) => failedRetries.push(err.message));
    });
  });
  await new Promise<void>((r) => invoke.listen(0, '127.0.0.1', r));
  process.env.PUSH_RETRY_INVOKE_ENDPOINT = `http://127.0.0.1:${(invoke.address() as AddressInfo).port}`;
  stream = startTestStream();
});
afterAll(async () => {
  await stream.poller.stop();
  pushService._server.close();
  invoke.close();
  delete process.env.PUSH_RETRY_INVOKE_ENDPOINT;
});
afterEach(() => expect(stream.deadLetters).toEqual([]));

const service = async (path: string, body: unknown) => {
  const res = await fetch(`${pushBase}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: (text.startsWith('{') ? JSON.parse(text) : text) as any };
};
/** A browser's subscription at the test push service, for the stage's VAPID key. */
async function browserSubscription(): Promise<{ endpoint: string; keys: { p256dh: string; auth: string }; clientHash: string }> {
  const { body } = await service('/subscribe', { userVisibleOnly: 'true', applicationServerKey: (await vapidKeys()).publicKey });
  return body.data;
}
const received = async (clientHash: string) => ((await service('/get-notifications', { clientHash })).body.data.messages as string[]).map((m) => JSON.parse(m));
const subscribe = (u: TestUser, body: Record<string, unknown>) => call(subscribeH, 'POST /push/subscriptions', { token: u.token, body });

describe('the subscription routes', () => {
  it('answers the VAPID public key without a token', async () => {
    const res = await call(vapidH, 'GET /push/vapid-key');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, publicKey: (await vapidKeys()).publicKey });
    expect(Buffer.from(res.body.publicKey, 'base64url')).toHaveLength(65);
  });

  it('subscribes, lists and removes; the same endpoint replaces; another user gets 404', async () => {
    const [me, other] = await users(2);
    const endpoint = `${pushBase}/notify/someone`;
    const first = await subscribe(me, { ...PUSH_SUBSCRIPTION, endpoint, types: ['FOLLOW'] });
    expect(first.status).toBe(201);
    expect(first.body.subscription).toEqual({ _id: expect.any(String), types: ['FOLLOW'], createdAt: expect.any(String) });
    const again = await subscribe(me, { ...PUSH_SUBSCRIPTION, endpoint });
    expect(again.body.subscription.types).toEqual(['FOLLOW', 'POST_LIKE', 'COMMENT', 'REPLY', 'COMMENT_LIKE', 'FOLLOW_REQUEST', 'FOLLOW_REQUEST_APPROVED', 'MENTION']);
    const list = await call(listH, 'GET /push/subscriptions', { token: me.token });
    expect(list.body.subscriptions).toEqual([again.body.subscription]);
    const id = again.body.subscription._id;
    expect((await call(deleteH, 'DELETE /push/subscriptions/{id}', { token: other.token, params: { id } })).status).toBe(404);
    expect((await call(deleteH, 'DELETE /push/subscriptions/{id}', { token: me.token, params: { id } })).status).toBe(200);
    expect((await call(deleteH, 'DELETE /push/subscriptions/{id}', { token: me.token, params: { id } })).status).toBe(404);
    expect((await call(listH, 'GET /push/subscriptions', { token: me.token })).body.subscriptions).toEqual([]);
  });

  it.each([
    ['http://push.example.com/x', 'https'],
    ['https://10.1.2.3/x', 'private'],
    ['https://169.254.169.254/latest', 'metadata'],
    ['https://[fd00::1]/x', 'unique local'],
    ['https://metadata.google.internal/x', 'metadata name'],
    ['https://localhost/x', 'loopback name over https is still local only'],
  ])('refuses the endpoint %s (%s)', async (endpoint) => {
    const [me] = await users(1);
    const res = await subscribe(me, { ...PUSH_SUBSCRIPTION, endpoint });
    if (endpoint === 'https://localhost/x') {
      // The local stage accepts loopback (the test push service); every other stage refuses it (unit test).
      expect(res.status).toBe(201);
      return;
    }
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([expect.objectContaining({ path: 'endpoint' })]);
  });

  it('refuses keys that are not a P-256 point and a 16-byte secret', async () => {
    const [me] = await users(1);
    const res = await subscribe(me, { endpoint: `${pushBase}/notify/x`, keys: { p256dh: 'AAAA', auth: 'short' } });
    expect(res.status).toBe(400);
  });
});

describe('delivery', () => {
  it('pushes a notification, encrypted and VAPID-signed, to the subscriptions of its type', async () => {
    const [me, fan] = await users(2);
    const [all, commentsOnly] = [await browserSubscription(), await browserSubscription()];
    expect((await subscribe(me, { endpoint: all.endpoint, keys: all.keys })).status).toBe(201);
    expect((await subscribe(me, { endpoint: commentsOnly.endpoint, keys: commentsOnly.keys, types: ['COMMENT'] })).status).toBe(201);
    await follow(fan, me);
    const [message] = await eventually(() => received(all.clientHash), (m) => m.length === 1, 15_000);
    const n = (await getItem(keys.notification(me.id, `FOLLOW#${fan.id}`)))!;
    expect(message).toEqual({ type: 'FOLLOW', notificationId: n.id, actor: { _id: fan.id, username: fan.username }, post: null, comment: null });
    expect(await received(commentsOnly.clientHash)).toEqual([]);
  });

  it('deletes a subscription the push service says is gone (410)', async () => {
    const [me, fan] = await users(2);
    const browser = await browserSubscription();
    const id = (await subscribe(me, { endpoint: browser.endpoint, keys: browser.keys })).body.subscription._id;
    expect((await service(`/expire-subscription/${browser.clientHash}`, {})).status).toBe(200);
    await follow(fan, me);
    await eventually(() => getItem(keys.pushSubscription(me.id, id)), (v) => v === undefined, 15_000);
  });

  it('deletes the subscriptions of a session that ends', async () => {
    const [me] = await users(1);
    const browser = await browserSubscription();
    const id = (await subscribe(me, { endpoint: browser.endpoint, keys: browser.keys })).body.subscription._id;
    expect((await call(logoutH, 'POST /auth/logout', { token: me.token })).status).toBe(200);
    await eventually(() => getItem(keys.pushSubscription(me.id, id)), (v) => v === undefined, 15_000);
  });
});

describe('retries', () => {
  /** A push service that answers `statuses` in turn (with Retry-After: 0), then 201. */
  async function flakyService(statuses: number[]): Promise<{ url: string; requests: number; close(): void }> {
    const state = { url: '', requests: 0, close: () => undefined as void };
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const status = statuses[state.requests++] ?? 201;
        res.writeHead(status, status === 201 ? {} : { 'Retry-After': '0' }).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/push`;
    state.close = () => { server.close(); };
    return state;
  }

  it('retries a 429 and a 503, honouring Retry-After, and delivers; the subscription stays', async () => {
    const [me, fan] = await users(2);
    const flaky = await flakyService([429, 503]);
    const id = (await subscribe(me, { ...PUSH_SUBSCRIPTION, endpoint: flaky.url })).body.subscription._id;
    await follow(fan, me);
    await eventually(async () => flaky.requests, (r) => r === 3, 20_000);
    expect(retries.filter((r) => r.subscriptionId === id).map((r) => r.attempt)).toEqual([2, 3]);
    expect(await getItem(keys.pushSubscription(me.id, id))).toBeDefined();
    flaky.close();
  });

  it(`dead-letters a message after ${PUSH_ATTEMPTS} failed attempts`, async () => {
    const [me, fan] = await users(2);
    const flaky = await flakyService(Array(PUSH_ATTEMPTS + 2).fill(500));
    const id = (await subscribe(me, { ...PUSH_SUBSCRIPTION, endpoint: flaky.url })).body.subscription._id;
    await follow(fan, me);
    await eventually(async () => failedRetries, (f) => f.some((m) => m.includes(id)), 30_000);
    expect(flaky.requests).toBe(PUSH_ATTEMPTS);
    flaky.close();
  });

  it('deletes the subscription on a 404 (or any 4xx but 408 and 429), without retrying', async () => {
    const [me, fan] = await users(2);
    const flaky = await flakyService([404]);
    const id = (await subscribe(me, { ...PUSH_SUBSCRIPTION, endpoint: flaky.url })).body.subscription._id;
    await follow(fan, me);
    await eventually(() => getItem(keys.pushSubscription(me.id, id)), (v) => v === undefined, 15_000);
    expect(flaky.requests).toBe(1);
    expect(retries.filter((r) => r.subscriptionId === id)).toEqual([]);
    flaky.close();
  });
});
