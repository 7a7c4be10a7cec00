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
import { startLocalStream } from '../../scripts/lib/local-stream.mjs';
import type { StreamPoller } from '../../scripts/lib/stream-poller.mjs';
import { createServer } from 'node:net';
import { request as httpRequest } from 'node:http';
import { SignJWT, decodeJwt } from 'jose';
import sharp from 'sharp';
import { makeImage } from '../support/media';
import { bindingOf, isLoopback, listeners, processTree, socketsOf } from '../support/listening';
import { renderedDom } from '../support/chromium';
import { apertureClient } from '../../clients/typescript';
import WebSocket from 'ws';

const local = JSON.parse(readFileSync(join(ROOT, 'config/local.json'), 'utf8')) as {
  tableName: string; issuer: string; audience: string; jwtKeys: { current: string; keys: Record<string, string> };
};
let offline: ChildProcess;
let stream: StreamPoller;
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
  // The change stream as npm start wires it: to the consumer through offline's Lambda endpoint.
  stream = startLocalStream({ endpoint: process.env.DYNAMODB_ENDPOINT!, tableName: local.tableName, lambdaEndpoint: `http://127.0.0.1:${lambdaPort}`, say: (m) => process.stderr.write(`[stream] ${m}\n`) });
}, 180_000);

afterAll(async () => {
  await stream?.stop();
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

it('answers 50 clients at once, every request its own answer and none a Lambda timeout (contract section 10)', async () => {
  // serverless-offline answers a timed-out or crashed function with a 200 whose body is the
  // Lambda error ({ errorMessage, errorType }), so each answer is checked for its documented
  // status and body, not only for a 2xx.
  const clients = 50;
  const tag = uniq('crowd');
  const send = async (method: string, path: string, body?: unknown, token?: string) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...(body ? { 'Content-Type': 'application/json' } : {}), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { route: `${method} ${path.replace(/[0-9A-Z]{26}/g, '{id}').replace(/\?.*$/, '')}`, status: res.status, text, json: (() => { try { return JSON.parse(text); } catch { return undefined; } })() };
  };
  const unexpected = (answers: Awaited<ReturnType<typeof send>>[], status: number) =>
    answers.filter((a) => a.status !== status || a.json?.success !== true || 'errorMessage' in (a.json ?? {})).map((a) => `${a.route} ${a.status} ${a.text.slice(0, 160)}`);

  // Registered ten at a time: 50 scrypt hashes at once in one process (every function shares
  // its libuv pool under npm start) once outlived their 10 s in a full run; the crowd below is
  // the simultaneous part.
  const registered: Awaited<ReturnType<typeof send>>[] = [];
  for (let batch = 0; batch < clients; batch += 10) {
    registered.push(...await Promise.all(Array.from({ length: 10 }, (_, k) => batch + k).map((i) => send('POST', '/auth/register', {
      name: `Crowd ${i}`, username: `${tag}${i}`, email: `${tag}${i}@example.test`, password: 'correct horse',
    }))));
  }
  expect(unexpected(registered, 201)).toEqual([]);
  const tokens = registered.map((r) => r.json.token as string);
  const ids = registered.map((r) => r.json.user._id as string);

  const created = await Promise.all(tokens.map((t, i) => send('POST', '/posts/create', { image: `https://images.example.test/${tag}/${i}.jpg`, caption: `crowd ${i}` }, t)));
  expect(unexpected(created, 201)).toEqual([]);
  const posts = created.map((c) => c.json.post._id as string);

  // Every client at once, each as an app sends: a request, its answer, the next one. Reads,
  // writes and a login (scrypt), six requests each, 50 in flight at any moment.
  const session = async (t: string, i: number) => {
    const out = [];
    out.push(await send('GET', '/users/me', undefined, t));
    out.push(await send('POST', `/posts/like/${posts[(i + 1) % clients]}`, undefined, t));
    out.push(await send('POST', `/users/follow/${ids[(i + 1) % clients]}`, undefined, t));
    out.push(await send('GET', '/posts/explore?limit=10', undefined, t));
    out.push(await send('GET', '/posts/feed', undefined, t));
    out.push(await send('POST', '/auth/login', { identifier: `${tag}${i}`, password: 'correct horse' }));
    return out;
  };
  const mixed = (await Promise.all(tokens.map(session))).flat();
  expect(unexpected(mixed, 200)).toEqual([]);
  // The writes all landed: each post has exactly its one like, each user one follower.
  const check = await Promise.all(posts.map((id) => send('GET', `/posts/${id}`, undefined, tokens[0])));
  expect(check.map((c) => c.json.post.likesCount)).toEqual(posts.map(() => 1));
  const profiles = await Promise.all(ids.map((id) => send('GET', `/users/${id}`, undefined, tokens[0])));
  expect(profiles.map((p) => p.json.user.followersCount)).toEqual(ids.map(() => 1));
}, 240_000);

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
  // The document as generated, with a servers entry that names the port it was fetched from.
  expect(doc.servers).toEqual([{ url: base, description: expect.any(String) }]);
  expect({ ...doc, servers: undefined }).toEqual({ ...JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8')), servers: undefined });
});

it("shows a followed account's new post in the feed within 5 seconds, through the stream as npm start runs it", async () => {
  const register = async () => {
    const username = uniq('feed');
    const res = await fetch(`${base}/auth/register`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Feed Reader', username, email: `${username}@example.test`, password: 'correct horse' }),
    });
    return json(res) as Promise<{ token: string; user: { _id: string } }>;
  };
  const [reader, author] = [await register(), await register()];
  const auth = (t: string) => ({ Authorization: `Bearer ${t}` });
  expect((await fetch(`${base}/users/follow/${author.user._id}`, { method: 'POST', headers: auth(reader.token) })).status).toBe(200);
  const created = await fetch(`${base}/posts/create`, {
    method: 'POST', headers: { ...auth(author.token), 'Content-Type': 'application/json' },
    body: JSON.stringify({ image: 'https://cdn.example.test/feed.jpg', caption: 'over the stream' }),
  });
  const postId = (await json(created)).post._id;
  const until = Date.now() + 5_000;
  let ids: string[] = [];
  while (Date.now() < until && !ids.includes(postId)) {
    const res = await fetch(`${base}/posts/feed`, { headers: auth(reader.token) });
    expect(res.status).toBe(200);
    ids = (await json(res)).posts.map((p: { _id: string }) => p._id);
    if (!ids.includes(postId)) await new Promise((r) => setTimeout(r, 100));
  }
  expect(ids).toEqual([postId]);
});

it('serves the API reference at /docs, which lists every operation in a real browser', async () => {
  const doc = JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8')) as { paths: Record<string, Record<string, { operationId: string; tags: string[] }>> };
  const dom = await renderedDom(`${base}/docs`);
  const missing: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      // Swagger UI gives each operation's block the id operations-<tag>-<operationId>.
      if (!dom.includes(`id="operations-${op.tags[0]}-${op.operationId}"`)) missing.push(`${method.toUpperCase()} ${path}`);
    }
  }
  expect(missing).toEqual([]);
  expect(Object.keys(doc.paths).length).toBeGreaterThan(30);
  // Public, like the document, and nothing loaded from another origin.
  const page = await fetch(`${base}/docs`);
  expect(page.status).toBe(200);
  expect(await page.text()).not.toMatch(/https?:\/\//);
}, 120_000);

describe('what an attack on the running stack found, over HTTP', () => {
  /** A JSON request from a loopback address of our choosing (serverless-offline gives it as sourceIp). */
  const from = (localAddress: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; body: any; headers: Record<string, string | string[] | undefined> }>((resolve, reject) => { // eslint-disable-line @typescript-eslint/no-explicit-any
      const data = body === undefined ? undefined : JSON.stringify(body);
      const req = httpRequest(`${base}${path}`, {
        method, localAddress, headers: { ...(data ? { 'Content-Type': 'application/json' } : {}), ...headers },
      }, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => { text += d.toString(); });
        res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined, headers: res.headers }));
      });
      req.on('error', reject);
      req.end(data);
    });
  const registered = async (prefix: string) => {
    const username = uniq(prefix);
    const res = await from('127.0.0.1', 'POST', '/auth/register', { name: 'Attacked', username, email: `${username}@example.test`, password: 'correct horse' });
    expect(res.status).toBe(201);
    return { username, id: res.body.user._id as string, token: res.body.token as string };
  };

  it('locks an account for the attacking address only, whatever X-Forwarded-For says, and an unknown identifier alike', async () => {
    const u = await registered('lock');
    const login = (addr: string, identifier: string, password: string, xff?: string) =>
      from(addr, 'POST', '/auth/login', { identifier, password }, xff ? { 'X-Forwarded-For': xff } : {});
    for (let i = 0; i < 10; i++) expect((await login('127.0.0.2', u.username, 'wrong password', `10.9.9.${i}`)).status).toBe(401);
    const locked = await login('127.0.0.2', u.username, 'correct horse', '10.9.9.99');
    expect(locked.status).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(800);
    expect((await login('127.0.0.3', u.username, 'correct horse')).status).toBe(200);
    // An unknown identifier: the same ten 401s, then the same 429 with the same body.
    const nobody = uniq('nobody');
    const unknown = [];
    for (let i = 0; i < 11; i++) unknown.push(await login('127.0.0.2', nobody, 'wrong password'));
    expect(unknown.map((r) => r.status)).toEqual([...Array(10).fill(401), 429]);
    expect(unknown[10]!.body).toEqual(locked.body);
  }, 120_000);

  it('answers the blocked user 404 for blocking or unblocking the blocker, and its blocked list stays empty', async () => {
    const [a, b] = [await registered('blkr'), await registered('blkd')];
    const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
    expect((await from('127.0.0.1', 'POST', `/users/block/${b.username}`, undefined, auth(a.token))).status).toBe(200);
    for (const path of [`/users/block/${a.username}`, `/users/unblock/${a.username}`, `/users/block/${a.id}`]) {
      const res = await from('127.0.0.1', 'POST', path, undefined, auth(b.token));
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    const list = await from('127.0.0.1', 'GET', '/users/blocked', undefined, auth(b.token));
    expect(list.body).toMatchObject({ data: [], count: 0 });
  }, 60_000);

  it('refuses a token signed with the right key whose claims are loose: lower-case sub, made-up sid, future iat, long life', async () => {
    const u = await registered('claims');
    const { sid } = decodeJwt(u.token) as { sid: string };
    const now = Math.floor(Date.now() / 1000);
    const sign = (sub: string, sessionId: string, iat: number, exp: number) => new SignJWT({ sid: sessionId, sep: 0 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: local.jwtKeys.current }).setSubject(sub).setIssuer(local.issuer).setAudience(local.audience)
      .setIssuedAt(iat).setExpirationTime(exp).sign(new TextEncoder().encode(local.jwtKeys.keys[local.jwtKeys.current]));
    const me = async (token: string) => (await from('127.0.0.1', 'GET', '/users/me', undefined, { Authorization: `Bearer ${token}` })).status;
    // The same claims, well formed, pass: each refusal below is for its own reason.
    expect(await me(await sign(u.id, sid, now, now + 600))).toBe(200);
    expect(await me(await sign(u.id.toLowerCase(), sid, now, now + 600))).toBe(401);
    expect(await me(await sign(u.id, '01ARZ3NDEKTSV4RRFFQ69G5FAV', now, now + 600))).toBe(401);
    expect(await me(await sign(u.id, sid, now + 300, now + 600))).toBe(401);
    expect(await me(await sign(u.id, sid, now, now + 10 * 365 * 86_400))).toBe(401);
  }, 60_000);
});

describe('posts and the social graph over HTTP', () => {
  // The API as an app team calls it: through the typed client of clients/typescript.
  const register = async (prefix: string) => {
    const username = uniq(prefix);
    const { data, response } = await apertureClient({ baseUrl: base }).POST('/auth/register', {
      body: { name: 'Over HTTP', username, email: `${username}@example.test`, password: 'correct horse' },
    });
    expect(response.status).toBe(201);
    return { token: data!.token, id: data!.user._id, username, api: apertureClient({ baseUrl: base, token: data!.token }) };
  };
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

  it('creates a post, finds it in explore, follows its author, and explore leaves it out', async () => {
    const [author, reader] = [await register('ha'), await register('hr')];
    const created = await author.api.POST('/posts/create', {
      headers: { 'Idempotency-Key': `http-${author.id}` },
      body: { image: ['https://cdn.example.test/http.jpg'], caption: 'over http' },
    });
    expect(created.response.status).toBe(201);
    expect(created.response.headers.get('x-trace-id')).toBeTruthy();
    const post = created.data!.post;
    expect(post).toMatchObject({ author: author.id, caption: 'over http', image: JSON.stringify(['https://cdn.example.test/http.jpg']) });

    const explore = async () => {
      const { data, response } = await reader.api.GET('/posts/explore', { params: { query: { limit: 50 } } });
      expect(response.status).toBe(200);
      return data!.posts.map((p) => p._id);
    };
    expect(await explore()).toContain(post._id);

    const follow = await reader.api.POST('/users/follow/{identifier}', { params: { path: { identifier: author.username.toUpperCase() } } });
    expect(follow.response.status).toBe(200);
    expect(follow.data).toEqual({ success: true, message: 'User followed successfully', isFollowing: true, requested: false, followersCount: 1 });
    expect(await explore()).not.toContain(post._id);

    const one = await reader.api.GET('/posts/{post_id}', { params: { path: { post_id: post._id.toLowerCase() } } });
    expect(one.response.status).toBe(200);
    expect(one.data!.post).toMatchObject({ _id: post._id, isLiked: false, likesCount: 0, commentsCount: 0 });

    // A refusal arrives as the typed error envelope.
    const again = await author.api.POST('/posts/create', {
      headers: { 'Idempotency-Key': `http-${author.id}` },
      body: { image: ['https://cdn.example.test/other.jpg'], caption: 'another post under the same key' },
    });
    expect([again.response.status, again.error?.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
  });

  it('answers a body of any JSON type with 400 VALIDATION_ERROR (serverless-offline hands falsy ones over parsed)', async () => {
    const u = await register('hj');
    for (const path of ['/posts/create', '/users/follow/' + u.username]) {
      for (const body of ['false', '0.0', 'null', '"x"', '0', 'true', '[]']) {
        const res = await fetch(`${base}${path}`, { method: 'POST', headers: { ...auth(u.token), 'Content-Type': 'application/json' }, body });
        const answer = await json(res);
        expect({ path, body, status: res.status, code: answer.code }).toEqual({ path, body, status: 400, code: 'VALIDATION_ERROR' });
      }
    }
    const bad = await fetch(`${base}/posts/create`, { method: 'POST', headers: { ...auth(u.token), 'Content-Type': 'application/json' }, body: 'x' });
    expect([bad.status, (await json(bad)).code]).toEqual([400, 'INVALID_JSON']);
    // Bytes that are not UTF-8 (a Latin-1 "é"): not JSON in UTF-8, whatever they spell.
    const latin1 = Buffer.from('{"image":["https://cdn.example.test/a.jpg"],"caption":"caf\u00e9"}', 'latin1');
    const notUtf8 = await fetch(`${base}/posts/create`, { method: 'POST', headers: { ...auth(u.token), 'Content-Type': 'application/json' }, body: latin1 });
    expect([notUtf8.status, (await json(notUtf8)).code]).toEqual([400, 'INVALID_JSON']);
  });

  it('answers a bad post id and a bad page in the envelope', async () => {
    const u = await register('hb');
    const bad = await u.api.GET('/posts/{post_id}', { params: { path: { post_id: 'not-an-id' } } });
    expect(bad.response.status).toBe(400);
    expect(bad.error).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    const page = await u.api.GET('/posts/explore', { params: { query: { page: 0 } } });
    expect(page.response.status).toBe(400);
    expect(page.error!.details).toEqual([{ path: 'page', message: expect.any(String) }]);
  });
});


// `npm start` end to end for media (contract sections 10 and 12): it starts the local
// S3-compatible storage, and an upload sent there with the presigned PUT of
// POST /media/uploads reaches the processing function through the storage's own event, as
// in AWS; the media becomes ready and its images are served from the storage. Runs
// scripts/start.mjs on free ports against the jest DynamoDB Local (DYNAMODB_ENDPOINT). In this
// file, after the tests above, so that its build never runs beside serverless-offline's.
describe('npm start with media', () => {
  let stack: ChildProcess;
  let out = '';
  let startBase: string;

  /** A base port whose next two are free too (npm start needs PORT, PORT+1, PORT+2). */
  async function threeFreePorts(): Promise<number> {
    for (;;) {
      const p = await freePort();
      const ok = await Promise.all([p + 1, p + 2].map((q) => new Promise<boolean>((resolve) => {
        const s = createServer();
        s.once('error', () => resolve(false));
        s.listen(q, '127.0.0.1', () => s.close(() => resolve(true)));
      })));
      if (ok.every(Boolean)) return p;
    }
  }

  beforeAll(async () => {
    await ensureTable(process.env.DYNAMODB_ENDPOINT!, 'aperture-local');
    const port = await threeFreePorts();
    startBase = `http://127.0.0.1:${port}`;
    stack = spawn(process.execPath, [join(ROOT, 'scripts/start.mjs')], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PORT: String(port), ESBUILD_WORK_FOLDER: '.esbuild-start-media', S3_ENDPOINT: '', MEDIA_BUCKET: '' },
    });
    // stdout whole (the banner is read from it); stderr's tail, for a failure's message.
    let errors = '';
    stack.stdout!.on('data', (d) => { out += d; });
    stack.stderr!.on('data', (d) => { errors = (errors + d).slice(-8000); });
    const until = Date.now() + 150_000;
    // The banner lines after "ready in" (the storage's among them) may come in a later chunk.
    while (!out.includes('ready in') || !out.includes('media storage (')) {
      if (stack.exitCode !== null) throw new Error(`npm start exited:\n${out}\n${errors}`);
      if (Date.now() > until) throw new Error(`npm start was not ready:\n${out}\n${errors}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }, 180_000);

  afterAll(async () => {
    if (stack?.exitCode === null) {
      const exited = new Promise((r) => stack.once('exit', r));
      stack.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    }
    stack?.stdout?.destroy();
    stack?.stderr?.destroy();
  });

  it('listens on loopback only: every listening socket of the stack (contract sections 10, 12)', async () => {
    const all = listeners();
    const port = Number(new URL(startBase).port);
    const storagePort = Number(/media storage \(S3-compatible, bucket [\w-]+\): http:\/\/127\.0\.0\.1:(\d+)/.exec(out)![1]);
    if (all) {
      // Every socket the stack's processes listen on: the API, WebSocket (live updates) and
      // Lambda ports of serverless-offline, the storage, the asynchronous invocations' endpoint.
      const sockets = socketsOf(processTree(stack.pid!));
      const stackListeners = all.filter((l) => sockets.has(l.inode));
      expect(stackListeners.map((l) => l.port)).toEqual(expect.arrayContaining([port, port + 1, port + 2, storagePort]));
      expect(stackListeners.length).toBeGreaterThanOrEqual(4);
      expect(stackListeners.filter((l) => !isLoopback(l.address))).toEqual([]);
    } else {
      for (const p of [port, port + 1, port + 2, storagePort]) expect((await bindingOf(p)).outside).toEqual([]);
    }
  });

  it('serves live updates on PORT+1, named in .local-stack.json, and a follow arrives there (contract section 20)', async () => {
    const port = Number(new URL(startBase).port);
    const stackFile = JSON.parse(readFileSync(join(ROOT, '.local-stack.json'), 'utf8')) as { websocketUrl: string };
    expect(stackFile.websocketUrl).toBe(`ws://localhost:${port + 1}`);
    const register = async () => {
      const username = uniq('ws');
      const res = await fetch(`${startBase}/auth/register`, {
        method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Live Start', username, email: `${username}@example.test`, password: 'correct horse' }),
      });
      return await res.json() as { token: string; user: { _id: string } };
    };
    const [me, fan] = [await register(), await register()];
    const ws = new WebSocket(`${stackFile.websocketUrl}/?token=${me.token}`);
    const first = new Promise<{ type: string; data: { actor: { _id: string } } }>((resolve, reject) => {
      ws.on('message', (d) => { const m = JSON.parse(String(d)); if (m.type === 'notification') resolve(m); });
      ws.on('error', reject);
    });
    await new Promise((r, j) => { ws.once('open', r); ws.once('error', j); });
    expect((await fetch(`${startBase}/users/follow/${me.user._id}`, { method: 'POST', headers: { Authorization: `Bearer ${fan.token}` } })).status).toBe(200);
    expect((await first).data.actor._id).toBe(fan.user._id);
    ws.terminate();
  });

  it('prints the storage on a loopback port, and an upload there is processed through its event', async () => {
    const storage = /media storage \(S3-compatible, bucket ([\w-]+)\): (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
    expect(storage).not.toBeNull();
    const username = uniq('sm');
    const reg = await fetch(`${startBase}/auth/register`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Start Media', username, email: `${username}@example.test`, password: 'correct horse' }),
    });
    expect(reg.status).toBe(201);
    const { token } = await reg.json() as { token: string };
    const auth = { Authorization: `Bearer ${token}` };

    const image = await makeImage('jpeg', 640, 480);
    const issued = await fetch(`${startBase}/media/uploads`, {
      method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ contentType: 'image/jpeg', size: image.length }),
    });
    expect(issued.status).toBe(201);
    const { upload } = await issued.json() as { upload: { mediaId: string; url: string; headers: Record<string, string> } };
    expect(upload.url.startsWith(`${storage![2]}/${storage![1]}/uploads/${upload.mediaId}?`)).toBe(true);
    expect((await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: image })).status).toBe(200);

    // Nobody calls processing: the storage's event does. Poll until it is done.
    let media: { status: string; url: string; width: number; height: number } | undefined;
    const until = Date.now() + 60_000;
    while (Date.now() < until) {
      const res = await fetch(`${startBase}/media/${upload.mediaId}`, { headers: auth });
      media = (await res.json() as { media: typeof media }).media;
      if (media!.status !== 'pending') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(media).toMatchObject({ status: 'ready', width: 480, height: 640 });
    const served = await fetch(media!.url);
    expect(served.status).toBe(200);
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).exif).toBeUndefined();
  });
});
