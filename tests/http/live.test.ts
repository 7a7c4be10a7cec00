// Live updates over WebSocket (contract section 20) as `npm start` serves them: serverless-offline's
// WebSocket server on its own port, its emulated Management API (POST/DELETE /@connections), and
// the change stream delivered to the consumer through offline's Lambda endpoint. Clients connect
// with `ws` and see each message arrive.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ensureTable, freePort } from '../../scripts/lib/local-dynamodb.mjs';
import { ROOT } from '../../scripts/lib/manifests.mjs';
import { startLocalStream } from '../../scripts/lib/local-stream.mjs';
import type { StreamPoller } from '../../scripts/lib/stream-poller.mjs';
import { uniq } from '../support/factories';
import * as keys from '../../lib/keys';

const local = JSON.parse(readFileSync(join(ROOT, 'config/local.json'), 'utf8')) as { tableName: string };
let offline: ChildProcess;
let stream: StreamPoller;
let base: string;
let wsBase: string;
let output = '';
const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT, region: 'us-east-1' }));

beforeAll(async () => {
  await ensureTable(process.env.DYNAMODB_ENDPOINT!, local.tableName);
  const [httpPort, lambdaPort, websocketPort] = [await freePort(), await freePort(), await freePort()];
  base = `http://127.0.0.1:${httpPort}`;
  wsBase = `ws://127.0.0.1:${websocketPort}`;
  offline = spawn(process.execPath, [
    join(ROOT, 'node_modules/serverless/bin/serverless.js'), 'offline', 'start', '--stage', 'local',
    '--httpPort', String(httpPort), '--lambdaPort', String(lambdaPort), '--websocketPort', String(websocketPort),
  ], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env, SLS_TELEMETRY_DISABLED: '1', SLS_NOTIFICATIONS_MODE: 'off', STAGE: 'local', ESBUILD_WORK_FOLDER: '.esbuild-live',
      WEBSOCKET_API_ENDPOINT: `http://127.0.0.1:${websocketPort}`,
    },
  });
  const keep = (d: Buffer) => { output = (output + d.toString()).slice(-6000); };
  offline.stdout!.on('data', keep);
  offline.stderr!.on('data', keep);
  const until = Date.now() + 150_000;
  for (;;) {
    if (offline.exitCode !== null) throw new Error(`serverless-offline exited:\n${output}`);
    try {
      if ((await fetch(`${base}/openapi.json`, { signal: AbortSignal.timeout(5000) })).status === 200) break;
    } catch { /* not yet */ }
    if (Date.now() > until) throw new Error(`serverless-offline did not answer:\n${output}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  stream = startLocalStream({ endpoint: process.env.DYNAMODB_ENDPOINT!, tableName: local.tableName, lambdaEndpoint: `http://127.0.0.1:${lambdaPort}`, say: (m) => process.stderr.write(`[stream] ${m}\n`) });
}, 180_000);

const sockets: WebSocket[] = [];
afterAll(async () => {
  for (const s of sockets) s.terminate();
  await stream?.stop();
  if (offline?.pid && offline.exitCode === null) {
    const exited = new Promise((r) => offline.once('exit', r));
    process.kill(-offline.pid, 'SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (offline.exitCode === null) process.kill(-offline.pid, 'SIGKILL');
  }
  offline?.stdout?.destroy();
  offline?.stderr?.destroy();
  doc.destroy();
});

interface Message { type: string; data: Record<string, any> }
interface Client {
  ws: WebSocket;
  messages: Message[];
  closed: Promise<number>;
  /** Waits for a message that `pred` holds for (a liveness bound, not a timing assertion). */
  next(pred: (m: Message) => boolean, ms?: number): Promise<Message>;
}

interface Account { token: string; refreshToken: string; user: { _id: string; username: string } }

const json = async (res: Response) => JSON.parse(await res.text());
const auth = (t: string) => ({ Authorization: `Bearer ${t}` });
async function register(): Promise<Account & { password: string }> {
  const username = uniq('live');
  const password = 'correct horse';
  const res = await fetch(`${base}/auth/register`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Live Reader', username, email: `${username}@example.test`, password }),
  });
  expect(res.status).toBe(201);
  return { ...(await json(res)), password };
}
const post = (path: string, token: string, body?: unknown) => fetch(`${base}${path}`, {
  method: 'POST', headers: { ...auth(token), ...(body ? { 'Content-Type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}),
});

/** The handshake's status when refused, or the open client. */
function connect(token: string | undefined): Promise<Client | number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(token === undefined ? wsBase : `${wsBase}/?token=${encodeURIComponent(token)}`);
    sockets.push(ws);
    const messages: Message[] = [];
    const waiters: (() => void)[] = [];
    ws.on('message', (d) => { messages.push(JSON.parse(String(d))); for (const w of waiters) w(); });
    const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
    ws.on('unexpected-response', (_req, res) => { resolve(res.statusCode ?? 0); ws.terminate(); });
    ws.on('error', (e) => reject(e));
    ws.on('open', () => resolve({
      ws, messages, closed,
      next: (pred, ms = 10_000) => new Promise((res, rej) => {
        const check = () => { const m = messages.find(pred); if (m) { res(m); return true; } return false; };
        if (check()) return;
        const timer = setTimeout(() => rej(new Error(`no such message within ${ms} ms; got ${JSON.stringify(messages)}`)), ms);
        waiters.push(() => { if (check()) clearTimeout(timer); });
      }),
    }));
  });
}
async function open(token: string): Promise<Client> {
  const c = await connect(token);
  if (typeof c === 'number') throw new Error(`handshake refused: ${c}`);
  return c;
}

describe('the WebSocket handshake', () => {
  it('refuses a missing, malformed or refresh token, and one of an ended session, with 401', async () => {
    const a = await register();
    expect(await connect(undefined)).toBe(401);
    expect(await connect('not-a-token')).toBe(401);
    expect(await connect(a.refreshToken)).toBe(401);
    expect((await post('/auth/logout', a.token)).status).toBe(200);
    expect(await connect(a.token)).toBe(401);
  });
});

describe('messages', () => {
  it('tells every connection of the user of a notification as GET /notifications lists it, and the unread count', async () => {
    const [me, fan] = [await register(), await register()];
    const [one, two] = [await open(me.token), await open(me.token)];
    expect((await post(`/users/follow/${fan.user._id}`, me.token)).status).toBe(200); // my own action: nothing for me
    expect((await post(`/users/follow/${me.user._id}`, fan.token)).status).toBe(200);
    const [m1, m2] = await Promise.all([one, two].map((c) => c.next((m) => m.type === 'notification')));
    const listed = (await json(await fetch(`${base}/notifications`, { headers: auth(me.token) }))).notifications;
    expect(m1).toEqual({ type: 'notification', data: listed[0] });
    expect(m2).toEqual(m1);
    expect(m1!.data).toMatchObject({ type: 'FOLLOW', actor: { _id: fan.user._id }, post: null, comment: null, read: false });
    await one.next((m) => m.type === 'unread' && m.data.unreadCount === 1);
    expect((await post('/notifications/read', me.token)).status).toBe(200);
    await two.next((m) => m.type === 'unread' && m.data.unreadCount === 0);
  });

  it('sends nothing from an account the user muted or across a block', async () => {
    const [me, muted, blocker, other] = [await register(), await register(), await register(), await register()];
    // The mute edge of contract section 18, as its module writes it.
    await doc.send(new PutCommand({ TableName: local.tableName, Item: { ...keys.mute(me.user._id, muted.user._id), type: 'MUTE', createdAt: new Date().toISOString() } }));
    const c = await open(me.token);
    expect((await post(`/users/follow/${blocker.user._id}`, me.token)).status).toBe(200);
    expect((await post(`/users/follow/${me.user._id}`, muted.token)).status).toBe(200);
    // A block landing after the follow: its notification is gone before it would be sent, or never sent.
    expect((await post(`/users/follow/${me.user._id}`, blocker.token)).status).toBe(200);
    expect((await post(`/users/block/${me.user._id}`, blocker.token)).status).toBe(200);
    expect((await post(`/users/follow/${me.user._id}`, other.token)).status).toBe(200);
    await c.next((m) => m.type === 'notification' && m.data.actor._id === other.user._id);
    const actors = c.messages.filter((m) => m.type === 'notification').map((m) => m.data.actor._id);
    expect(actors).not.toContain(muted.user._id);
    expect(actors.filter((a) => a === blocker.user._id).length).toBeLessThanOrEqual(1);
  });

  it("tells a follower of a followed account's new post (fan-out), not the author", async () => {
    const [reader, author] = [await register(), await register()];
    expect((await post(`/users/follow/${author.user._id}`, reader.token)).status).toBe(200);
    const [r, a] = [await open(reader.token), await open(author.token)];
    const created = await post('/posts/create', author.token, { image: 'https://cdn.example.test/live.jpg', caption: 'live' });
    const postId = (await json(created)).post._id;
    expect(await r.next((m) => m.type === 'feed')).toEqual({ type: 'feed', data: { postId, author: author.user._id } });
    expect(a.messages.filter((m) => m.type === 'feed')).toEqual([]);
  });
});

describe('closing', () => {
  it("closes a session's connections when it ends; the user's other session's stay", async () => {
    const me = await register();
    const login = await fetch(`${base}/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ identifier: me.user.username, password: me.password }) });
    expect(login.status).toBe(200);
    const second = await json(login);
    const [ending, staying] = [await open(me.token), await open(second.token)];
    expect((await post('/auth/logout', me.token)).status).toBe(200);
    await ending.closed;
    const fan = await register();
    expect((await post(`/users/follow/${me.user._id}`, fan.token)).status).toBe(200);
    await staying.next((m) => m.type === 'notification');
    expect(staying.ws.readyState).toBe(WebSocket.OPEN);
  });

  it("closes every connection of an account that is deleted", async () => {
    const me = await register();
    const c = await open(me.token);
    const res = await fetch(`${base}/users/me`, { method: 'DELETE', headers: { ...auth(me.token), 'Content-Type': 'application/json' }, body: JSON.stringify({ password: me.password }) });
    expect(res.status).toBe(200);
    await c.closed;
  });

  it('forgets a connection that is gone (410) at the first send', async () => {
    const [me, fan] = [await register(), await register()];
    const ghost = keys.connection(me.user._id, 'gone-connection');
    await doc.send(new PutCommand({ TableName: local.tableName, Item: { ...ghost, type: 'CONNECTION', connectionId: 'gone-connection', userId: me.user._id, sessionId: 'X', connectedAt: new Date().toISOString(), expiresAt: Math.floor(Date.now() / 1000) + 3600 } }));
    const c = await open(me.token);
    expect((await post(`/users/follow/${me.user._id}`, fan.token)).status).toBe(200);
    await c.next((m) => m.type === 'notification');
    const until = Date.now() + 10_000;
    while ((await doc.send(new GetCommand({ TableName: local.tableName, Key: ghost }))).Item && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect((await doc.send(new GetCommand({ TableName: local.tableName, Key: ghost }))).Item).toBeUndefined();
  });
});
