// `npm run token` (scripts/token.mjs) against the test table: its token passes the session
// check of every authenticated request, carries the scope string as given, and its --ttl.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { resolve } from 'node:path';
import { decodeJwt } from 'jose';
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
