// End to end over HTTP: serverless-offline (the same serverless.yml, the local stage) on free
// ports, against the jest DynamoDB Local. Checks what only the HTTP layer shows: status
// lines, headers, CORS and its preflight, unknown routes, the public OpenAPI document, and a
// posts route and a graph route end to end.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureTable, freePort } from '../../scripts/lib/local-dynamodb.mjs';
import { ROOT } from '../../scripts/lib/manifests.mjs';
import { uniq } from '../support/factories';

const local = JSON.parse(readFileSync(join(ROOT, 'config/local.json'), 'utf8')) as { tableName: string };
let offline: ChildProcess;
let base: string;
let output = '';

async function waitUntilUp(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (offline.exitCode !== null) throw new Error(`serverless-offline exited:\n${output}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
      if (res.status === 200) return;
    } catch { /* not yet */ }
    if (Date.now() > until) throw new Error(`serverless-offline did not answer within ${timeoutMs} ms:\n${output}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

beforeAll(async () => {
  // serverless.yml's local stage names its table from config/local.json.
  await ensureTable(process.env.DYNAMODB_ENDPOINT!, local.tableName);
  const [httpPort, lambdaPort, websocketPort] = [await freePort(), await freePort(), await freePort()];
  base = `http://127.0.0.1:${httpPort}`;
  offline = spawn(process.execPath, [
    join(ROOT, 'node_modules/serverless/bin/serverless.js'), 'offline', 'start', '--stage', 'local',
    '--httpPort', String(httpPort), '--lambdaPort', String(lambdaPort), '--websocketPort', String(websocketPort),
  ], {
    cwd: ROOT,
    detached: true, // its own process group: afterAll ends its workers too
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SLS_TELEMETRY_DISABLED: '1', SLS_NOTIFICATIONS_MODE: 'off', STAGE: 'local', ESBUILD_WORK_FOLDER: '.esbuild-offline' },
  });
  const keep = (d: Buffer) => { output = (output + d.toString()).slice(-4000); };
  offline.stdout!.on('data', keep);
  offline.stderr!.on('data', keep);
  await waitUntilUp(`${base}/openapi.json`, 150_000);
}, 180_000);

afterAll(async () => {
  if (offline?.pid && offline.exitCode === null) {
    const exited = new Promise((r) => offline.once('exit', r));
    process.kill(-offline.pid, 'SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (offline.exitCode === null) process.kill(-offline.pid, 'SIGKILL');
  }
  offline?.stdout?.destroy();
  offline?.stderr?.destroy();
});

const json = async (res: Response) => JSON.parse(await res.text());

it('registers, then reads the own user with the token', async () => {
  const username = uniq('http');
  const reg = await fetch(`${base}/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Trace-Id': `http-${username}` },
    body: JSON.stringify({ name: 'Over HTTP', username, email: `${username}@example.test`, password: 'correct horse' }),
  });
  expect(reg.status).toBe(201);
  expect(reg.headers.get('x-trace-id')).toBe(`http-${username}`);
  const { token, user } = await json(reg);
  expect(user).toMatchObject({ username, email: `${username}@example.test` });

  const me = await fetch(`${base}/users/me`, { headers: { Authorization: `Bearer ${token}` } });
  expect(me.status).toBe(200);
  expect((await json(me)).user._id).toBe(user._id);
  expect(me.headers.get('x-trace-id')).toBeTruthy();
});

it('keeps a session over HTTP: refresh, the session list with the User-Agent, logout refusing the tokens at once', async () => {
  const username = uniq('sess');
  const post = (path: string, body: unknown, token?: string) => fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'User-Agent': 'AppOverHttp/1.0', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const reg = await json(await post('/auth/register', { name: 'Session Keeper', username, email: `${username}@example.test`, password: 'correct horse' }));
  const refreshed = await post('/auth/refresh', { refreshToken: reg.refreshToken });
  expect(refreshed.status).toBe(200);
  const pair = await json(refreshed);
  expect(pair).toMatchObject({ success: true, token: expect.any(String), refreshToken: expect.any(String), expiresIn: 900 });
  const list = await json(await fetch(`${base}/auth/sessions`, { headers: { Authorization: `Bearer ${pair.token}` } }));
  expect(list.sessions).toEqual([expect.objectContaining({ userAgent: 'AppOverHttp/1.0', current: true })]);
  const out = await fetch(`${base}/auth/logout`, { method: 'POST', headers: { Authorization: `Bearer ${pair.token}` } });
  expect(out.status).toBe(200);
  const after = await fetch(`${base}/users/me`, { headers: { Authorization: `Bearer ${pair.token}` } });
  expect(after.status).toBe(401);
  expect(after.headers.get('www-authenticate')).toBe('Bearer');
  expect((await post('/auth/refresh', { refreshToken: pair.refreshToken })).status).toBe(401);
});

it('answers 401 in the envelope with WWW-Authenticate and X-Trace-Id', async () => {
  const res = await fetch(`${base}/users/me`, { headers: { Authorization: 'Bearer not.a.token' } });
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toBe('Bearer');
  expect(res.headers.get('x-trace-id')).toBeTruthy();
  expect(await json(res)).toEqual({ success: false, message: expect.any(String), code: 'UNAUTHORIZED' });
});

it('sends CORS headers, and answers the preflight', async () => {
  const res = await fetch(`${base}/users/me`, { headers: { Origin: 'https://app.example' } });
  expect(res.headers.get('access-control-allow-origin')).toMatch(/^(\*|https:\/\/app\.example)$/);
  expect(res.headers.get('access-control-expose-headers')).toMatch(/X-Trace-Id/i);

  const pre = await fetch(`${base}/users/profile/edit`, {
    method: 'OPTIONS',
    headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' },
  });
  expect(pre.status).toBeLessThan(300);
  expect(pre.headers.get('access-control-allow-origin')).toMatch(/^(\*|https:\/\/app\.example)$/);
  expect(pre.headers.get('access-control-allow-methods')).toMatch(/POST/);
  expect((pre.headers.get('access-control-allow-headers') ?? '').toLowerCase()).toEqual(expect.stringContaining('authorization'));
});

it('answers an unknown route 404 NOT_FOUND in the envelope', async () => {
  const res = await fetch(`${base}/no/such/route?x=1`);
  expect(res.status).toBe(404);
  expect(await json(res)).toEqual({ success: false, message: expect.any(String), code: 'NOT_FOUND' });
  expect(res.headers.get('x-trace-id')).toBeTruthy();
});

it('serves the OpenAPI document without a token', async () => {
  const res = await fetch(`${base}/openapi.json`);
  expect(res.status).toBe(200);
  const doc = await json(res);
  expect(doc).toEqual(JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8')));
});

describe('posts and the social graph over HTTP', () => {
  const register = async (prefix: string) => {
    const username = uniq(prefix);
    const res = await fetch(`${base}/auth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Over HTTP', username, email: `${username}@example.test`, password: 'correct horse' }),
    });
    expect(res.status).toBe(201);
    const { token, user } = await json(res);
    return { token: token as string, id: user._id as string, username };
  };
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

  it('creates a post, finds it in explore, follows its author, and explore leaves it out', async () => {
    const [author, reader] = [await register('ha'), await register('hr')];
    const created = await fetch(`${base}/posts/create`, {
      method: 'POST',
      headers: { ...auth(author.token), 'Content-Type': 'application/json', 'Idempotency-Key': `http-${author.id}` },
      body: JSON.stringify({ image: ['https://cdn.example.test/http.jpg'], caption: 'over http' }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-trace-id')).toBeTruthy();
    const { post } = await json(created);
    expect(post).toMatchObject({ author: author.id, caption: 'over http', image: JSON.stringify(['https://cdn.example.test/http.jpg']) });

    const explore = async () => {
      const res = await fetch(`${base}/posts/explore?limit=50`, { headers: auth(reader.token) });
      expect(res.status).toBe(200);
      return (await json(res)).posts.map((p: { _id: string }) => p._id) as string[];
    };
    expect(await explore()).toContain(post._id);

    const follow = await fetch(`${base}/users/follow/${author.username.toUpperCase()}`, { method: 'POST', headers: auth(reader.token) });
    expect(follow.status).toBe(200);
    expect(await json(follow)).toEqual({ success: true, message: 'User followed successfully', isFollowing: true, followersCount: 1 });
    expect(await explore()).not.toContain(post._id);

    const one = await fetch(`${base}/posts/${post._id.toLowerCase()}`, { headers: auth(reader.token) });
    expect(one.status).toBe(200);
    expect((await json(one)).post).toMatchObject({ _id: post._id, isLiked: false, likesCount: 0, commentsCount: 0 });
  });

  it('answers a bad post id and a bad page in the envelope', async () => {
    const u = await register('hb');
    const bad = await fetch(`${base}/posts/not-an-id`, { headers: auth(u.token) });
    expect(bad.status).toBe(400);
    expect(await json(bad)).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    const page = await fetch(`${base}/posts/explore?page=0`, { headers: auth(u.token) });
    expect(page.status).toBe(400);
    expect((await json(page)).details).toEqual([{ path: 'page', message: expect.any(String) }]);
  });
});
