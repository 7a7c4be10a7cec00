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
import { renderedDom } from '../support/chromium';
import { apertureClient } from '../../clients/typescript';

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
    expect(follow.data).toEqual({ success: true, message: 'User followed successfully', isFollowing: true, followersCount: 1 });
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
