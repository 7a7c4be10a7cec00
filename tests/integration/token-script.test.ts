// `npm run token` (scripts/token.mjs) against the test table: its token passes the session
// check of every authenticated request, carries the scope string as given, and its --ttl.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { resolve } from 'node:path';
import { decodeJwt, jwtVerify } from 'jose';
import { getItem } from '../support/db';
import { keys } from '../../lib/keys';
import { call } from '../support/invoke';
import { makeUser } from '../support/factories';
import { handler as me } from '../../functions/users/me';
import { handler as sessions } from '../../functions/auth/sessions';

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

it('lasts TOKEN_TTL_SECONDS (15 minutes) by default', async () => {
  const u = await makeUser();
  const claims = decodeJwt(await token(u.username));
  expect(claims.exp! - claims.iat!).toBe(900);
});

it('--stage mints for a deployed stage: its table through the AWS SDK, signed with JWT_SECRET; without the secret it refuses', async () => {
  const u = await makeUser();
  const secret = 'a-deployed-stage-secret-of-40-characters!';
  // The stage's table is the test table here (TABLE_NAME), reached through the SDK's own
  // endpoint setting instead of the local stack's.
  const env = { ...process.env, JWT_SECRET: secret, AWS_ENDPOINT_URL_DYNAMODB: process.env.DYNAMODB_ENDPOINT };
  const out = (await run(process.execPath, [resolve(__dirname, '../../scripts/token.mjs'), u.username, '--stage', 'qa', '--scope', 'moderate'], { env })).stdout.trim();
  const { payload } = await jwtVerify(out, new TextEncoder().encode(secret));
  expect(payload).toMatchObject({ sub: u.id, scope: 'moderate', sid: expect.any(String) });
  expect(await getItem(keys.session(u.id, String(payload.sid)))).toMatchObject({ userAgent: 'npm run token' });
  const refused = run(process.execPath, [resolve(__dirname, '../../scripts/token.mjs'), u.username, '--stage', 'qa'], { env: { ...env, JWT_SECRET: '' } });
  await expect(refused).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('JWT_SECRET') });
});
