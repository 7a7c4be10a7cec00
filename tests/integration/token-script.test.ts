// `npm run token` (scripts/token.mjs) against the test table: its token passes the session
// check of every authenticated request, carries the scope string as given, and its --ttl.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { resolve } from 'node:path';
import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { getItem } from '../support/db';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../../lib/db/client';
import * as keys from '../../lib/keys';
import { call } from '../support/invoke';
import { makeUser } from '../support/factories';
import { withTwoFactor } from '../support/two-factor';
import { handler as me } from '../../functions/users/me';
import { handler as sessions } from '../../functions/auth/sessions';
import { keySetJson, ssmServer, type SsmAnswer, type SsmServer } from '../support/ssm-server';

const run = promisify(execFile);
const token = async (...args: string[]) =>
  (await run(process.execPath, [resolve(__dirname, '../../scripts/token.mjs'), ...args], { env: { ...process.env } })).stdout.trim();

it('mints a token with a real session, the scope as given and the asked lifetime', async () => {
  const u = await makeUser();
  const t = await token(u.username.toUpperCase(), '--scope', 'logs:read moderate', '--ttl', '120');
  const claims = decodeJwt(t);
  expect(claims).toMatchObject({ sub: u.id, scope: 'logs:read moderate', sid: expect.any(String) });
  expect(claims.exp! - claims.iat!).toBe(120);
  expect((await call(me, 'GET /users/me', { token: t })).status).toBe(200);
  const listed = await call(sessions, 'GET /auth/sessions', { token: t });
  expect(listed.body.sessions.find((s: { current: boolean }) => s.current)).toMatchObject({ _id: claims.sid, userAgent: 'npm run token' });
});

it('mints a working token for a user with two-factor sign-in on (contract section 17)', async () => {
  const u = await makeUser();
  await withTwoFactor(u);
  const t = await token(u.username);
  const who = await call(me, 'GET /users/me', { token: t });
  expect(who.status).toBe(200);
  expect(who.body.user).toMatchObject({ _id: u.id, twoFactorEnabled: true });
});

it('mints none for a suspended account (exit 1, saying so): its token would be refused on every request', async () => {
  const u = await makeUser();
  await db.send(new UpdateCommand({ TableName: TABLE, Key: keys.user(u.id), UpdateExpression: 'SET suspendedAt = :t', ExpressionAttributeValues: { ':t': new Date().toISOString() } }));
  await expect(token(u.username)).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining(`@${u.username} is suspended`) });
});

it('lasts TOKEN_TTL_SECONDS (15 minutes) by default', async () => {
  const u = await makeUser();
  const claims = decodeJwt(await token(u.username));
  expect(claims.exp! - claims.iat!).toBe(900);
  // Signed with the local stage's current key, under its kid.
  expect(decodeProtectedHeader(await token(u.username))).toMatchObject({ alg: 'HS256', kid: 'local-1' });
});

describe('--stage <stage>', () => {
  let ssm: SsmServer;
  beforeAll(async () => { ssm = await ssmServer(); });
  afterAll(() => ssm.close());

  const NAME = '/aperture/qa/jwt-keys';
  const [OLD, CURRENT] = ['a-deployed-stage-key-of-40-characters-old!', 'a-deployed-stage-key-of-40-characters-new!'];
  // The stage's table is the test table here (TABLE_NAME), reached through the SDK's own
  // endpoint setting instead of the local stack's; its SSM is the loopback stand-in.
  const stageEnv = () => ({ ...process.env, AWS_ENDPOINT_URL_DYNAMODB: process.env.DYNAMODB_ENDPOINT, SSM_ENDPOINT: ssm.url });
  const mint = (username: string, env: NodeJS.ProcessEnv, ...more: string[]) =>
    run(process.execPath, [resolve(__dirname, '../../scripts/token.mjs'), username, '--stage', 'qa', ...more], { env });

  it('mints for a deployed stage: its table through the AWS SDK, signed with the current key of the SSM key set, read with a signed, decrypting GetParameter', async () => {
    const u = await makeUser();
    ssm.answer({ parameter: { name: NAME, type: 'SecureString', value: keySetJson('2026-11', { '2026-10': OLD, '2026-11': CURRENT }) } });
    const before = ssm.requests.length;
    const out = (await mint(u.username, stageEnv(), '--scope', 'moderate')).stdout.trim();
    expect(decodeProtectedHeader(out)).toMatchObject({ alg: 'HS256', kid: '2026-11' });
    const { payload } = await jwtVerify(out, new TextEncoder().encode(CURRENT));
    expect(payload).toMatchObject({ sub: u.id, scope: 'moderate', sid: expect.any(String) });
    expect(await getItem(keys.session(u.id, String(payload.sid)))).toMatchObject({ userAgent: 'npm run token' });
    expect(ssm.requests.slice(before)).toEqual([{
      target: 'AmazonSSM.GetParameter', contentType: 'application/x-amz-json-1.1', body: { Name: NAME, WithDecryption: true },
      signed: true, credentialScope: expect.stringMatching(/^\d{8}\/us-east-1\/ssm\/aws4_request$/),
    }]);
  });

  it('refuses (exit 2, saying why) without a readable SecureString key set, or with the development key', async () => {
    const u = await makeUser();
    const refusals: [SsmAnswer, RegExp][] = [
      [{ status: 400, type: 'AccessDeniedException', message: 'not authorized to perform ssm:GetParameter' }, /AccessDeniedException/],
      [{ status: 400, type: 'ParameterNotFound', message: '' }, /ParameterNotFound/],
      [{ parameter: { name: NAME, type: 'String', value: keySetJson('k1', { k1: CURRENT }) } }, /not a SecureString/],
      [{ parameter: { name: NAME, type: 'SecureString', value: keySetJson('k2', { k1: CURRENT }) } }, /key set/],
      [{ parameter: { name: NAME, type: 'SecureString', value: keySetJson('k1', { k1: 'too-short' }) } }, /key set/],
      [{ parameter: { name: NAME, type: 'SecureString', value: keySetJson('local-1', { 'local-1': 'aperture-local-development-secret-do-not-use-in-aws' }) } }, /development key/],
    ];
    for (const [answer, why] of refusals) {
      ssm.answer(answer);
      await expect(mint(u.username, stageEnv())).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(why) });
    }
  });
});
