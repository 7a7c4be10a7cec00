// The signing keys as a deployed stage reads them: the real handlers, their key set in an SSM
// SecureString parameter served by a loopback stand-in (tests/support/ssm-server.ts) that
// checks each request's SigV4 signature. A rotation (a second key, then a new current key,
// then the old key removed) reaches the functions through the cache interval, without a
// restart; a key set that cannot be read or used is a 500, never a token signed with nothing.
// The environment is set before anything loads lib/config, so the modules come in beforeAll.
import { SignJWT, decodeProtectedHeader } from 'jose';
import { keySetJson, ssmServer, type SsmServer } from '../support/ssm-server';
import type { call as Call } from '../support/invoke';
import type { TestUser } from '../support/factories';

const NAME = '/aperture/test/jwt-keys';
const K1 = 'first-key-of-the-rotation-test-0123456789';
const K2 = 'second-key-of-the-rotation-test-987654321';

let ssm: SsmServer;
let call: typeof Call;
let makeUser: () => Promise<TestUser>;
let me: Parameters<typeof Call>[0];
let login: Parameters<typeof Call>[0];
let issuer: string;
let audience: string;

const secure = (value: string) => ({ parameter: { name: NAME, type: 'SecureString' as const, value } });
const kidOf = (token: string) => decodeProtectedHeader(token).kid;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Polls `probe` (the cache interval is 1 s here) until it holds; fails, naming what it saw last, after `tries` more probes. */
async function eventually<T>(probe: () => Promise<T>, holds: (v: T) => boolean, tries = 60): Promise<T> {
  let v = await probe();
  for (let i = 0; i < tries && !holds(v); i++) {
    await sleep(100);
    v = await probe();
  }
  if (!holds(v)) throw new Error(`not done after ${tries} more tries; last value seen: ${JSON.stringify(v)}`);
  return v;
}
const status = async (token: string) => (await call(me, 'GET /users/me', { token })).status;
const freshToken = async (u: TestUser) => {
  const res = await call(login, 'POST /auth/login', { body: { identifier: u.username, password: u.password } });
  expect(res.status).toBe(200);
  return res.body.token as string;
};

beforeAll(async () => {
  ssm = await ssmServer();
  ssm.answer(secure(keySetJson('k1', { k1: K1 })));
  Object.assign(process.env, { JWT_KEYS_PARAMETER: NAME, SSM_ENDPOINT: ssm.url, JWT_KEYS_CACHE_SECONDS: '1' });
  ({ call } = await import('../support/invoke'));
  ({ makeUser } = await import('../support/factories'));
  ({ handler: me } = await import('../../functions/users/me'));
  ({ handler: login } = await import('../../functions/auth/login'));
  ({ issuer, audience } = (await import('../../lib/config')).config);
});

afterAll(async () => {
  await ssm.close();
});

it('reads the key set with a SigV4-signed AmazonSSM.GetParameter that asks for decryption, and signs under the current kid', async () => {
  const u = await makeUser();
  expect(kidOf(u.token)).toBe('k1');
  expect(await status(u.token)).toBe(200);
  expect(ssm.requests.length).toBeGreaterThan(0);
  for (const r of ssm.requests) {
    expect(r).toEqual({
      target: 'AmazonSSM.GetParameter', contentType: 'application/x-amz-json-1.1', body: { Name: NAME, WithDecryption: true },
      signed: true, credentialScope: expect.stringMatching(/^\d{8}\/us-east-1\/ssm\/aws4_request$/),
    });
  }
});

it('the stand-in refuses what SSM would refuse: a request with a wrong signature', async () => {
  const before = ssm.requests.length;
  const res = await fetch(ssm.url, {
    method: 'POST', body: JSON.stringify({ Name: NAME, WithDecryption: true }),
    headers: {
      'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AmazonSSM.GetParameter', 'x-amz-date': '20261124T000000Z',
      authorization: `AWS4-HMAC-SHA256 Credential=local/20261124/us-east-1/ssm/aws4_request, SignedHeaders=host;x-amz-date;x-amz-target, Signature=${'0'.repeat(64)}`,
    },
  });
  expect(res.status).toBe(400);
  expect(ssm.requests.slice(before)).toEqual([expect.objectContaining({ signed: false })]);
});

it('rotates without a restart: the old kid verifies while both keys are listed, new tokens carry the new kid, and the old kid is a 401 once removed', async () => {
  ssm.answer(secure(keySetJson('k1', { k1: K1 })));
  const u = await makeUser();
  const old = u.token;
  expect(kidOf(old)).toBe('k1');

  // 1. The new key, not current yet: tokens are still signed with k1.
  ssm.answer(secure(keySetJson('k1', { k1: K1, k2: K2 })));
  // 2. The new key current: once the cache interval has passed, new tokens carry k2...
  const reads = ssm.requests.length;
  ssm.answer(secure(keySetJson('k2', { k1: K1, k2: K2 })));
  const fresh = await eventually(() => freshToken(u), (t) => kidOf(t) === 'k2');
  expect(kidOf(fresh)).toBe('k2');
  expect(ssm.requests.length).toBeGreaterThan(reads);
  // ...and both the old token and the new one verify.
  expect(await status(old)).toBe(200);
  expect(await status(fresh)).toBe(200);

  // 3. The old key removed: its tokens are refused, the new ones are not.
  ssm.answer(secure(keySetJson('k2', { k2: K2 })));
  expect(await eventually(() => status(old), (s) => s === 401)).toBe(401);
  const refused = await call(me, 'GET /users/me', { token: old });
  expect(refused.body).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
  expect(await status(fresh)).toBe(200);
});

it('refuses a token whose kid the key set does not hold, or that has none, even signed with a listed key (401)', async () => {
  ssm.answer(secure(keySetJson('k2', { k2: K2 })));
  const u = await makeUser();
  expect(await eventually(() => status(u.token), (s) => s === 200)).toBe(200);
  const forged = (header: Record<string, string>) => new SignJWT({ sid: u.sessionId, sep: 0 })
    .setProtectedHeader({ alg: 'HS256', ...header }).setSubject(u.id).setIssuer(issuer).setAudience(audience)
    .setIssuedAt().setExpirationTime('5m').sign(new TextEncoder().encode(K2));
  expect(await status(await forged({ kid: 'k2' }))).toBe(200);
  expect(await status(await forged({ kid: 'k3' }))).toBe(401);
  expect(await status(await forged({}))).toBe(401);
});

it('keeps serving with the keys it has while the parameter is broken or unreachable, and picks up the repair', async () => {
  ssm.answer(secure(keySetJson('k2', { k2: K2 })));
  const u = await makeUser();
  for (const broken of [secure('{"current":"k2","keys":{}}'), { status: 400, type: 'AccessDeniedException', message: 'no ssm:GetParameter' }] as const) {
    const reads = ssm.requests.length;
    ssm.answer(broken);
    // Requests go on with the cached set until the next read has happened (a check of a token
    // is what reads the parameter again, once the cache interval is over), and after it.
    const seen: number[] = [];
    const readsAfter = await eventually(async () => {
      seen.push(await status(u.token));
      return ssm.requests.length;
    }, (n) => n > reads);
    expect(readsAfter).toBeGreaterThan(reads);
    expect(await status(u.token)).toBe(200);
    expect(new Set(seen)).toEqual(new Set([200]));
  }
  // Repaired, with a new current key: picked up at the next try (after a failed re-read, the
  // cache interval or 30 s, whichever is shorter: 1 s here).
  const K3 = 'third-key-of-the-rotation-test-abcdefghij';
  ssm.answer(secure(keySetJson('k3', { k2: K2, k3: K3 })));
  expect(kidOf(await eventually(() => freshToken(u), (t) => kidOf(t) === 'k3'))).toBe('k3');
  expect(await status(u.token)).toBe(200);
});

describe('a cold start whose key set cannot be used', () => {
  // A fresh module registry is a fresh Lambda instance: nothing cached.
  const coldMe = () => {
    let fresh: { call: typeof Call; me: typeof me } | undefined;
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      fresh = { call: require('../support/invoke').call, me: require('../../functions/users/me').handler };
    });
    return fresh!;
  };

  it.each([
    ['malformed JSON', secure('{"current":"k2",'), /not JSON/],
    ['a current kid that is not in the keys', secure(keySetJson('k9', { k2: K2 })), /"current" names "k9"/],
    ['a short secret', secure(keySetJson('k2', { k2: 'short' })), /at least 32 characters/],
    ['a plain String parameter', { parameter: { name: NAME, type: 'String' as const, value: keySetJson('k2', { k2: K2 }) } }, /not a SecureString/],
    ['no parameter', { status: 400, type: 'ParameterNotFound', message: '' }, /ParameterNotFound/],
    ['no permission', { status: 400, type: 'AccessDeniedException', message: 'not authorized to perform: ssm:GetParameter' }, /AccessDeniedException: not authorized/],
  ])('answers 500 INTERNAL_ERROR (and logs why) for %s, signing and verifying nothing', async (_why, answer, reason) => {
    ssm.answer(secure(keySetJson('k2', { k2: K2 })));
    const u = await makeUser();
    ssm.answer(answer);
    const cold = coldMe();
    const lines: string[] = [];
    const spy = jest.spyOn(process.stderr, 'write').mockImplementation((line) => { lines.push(String(line)); return true; });
    let res;
    try {
      res = await cold.call(cold.me, 'GET /users/me', { token: u.token });
    } finally {
      spy.mockRestore();
    }
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ success: false, code: 'INTERNAL_ERROR' });
    expect(res.text).not.toContain(K2);
    const failure = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.event === 'request_failed');
    expect(failure?.message).toMatch(reason);
    expect(String(failure?.message)).not.toContain(K2);
  });
});
