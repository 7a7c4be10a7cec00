// The last middleware of the stack (lib/http/errors.ts) on a route of its own whose handler
// fails: a 5xx is logged with its stack whoever asked, and a deleted account's token is
// answered 401 even then (without hiding the failure from the logs).
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { http } from '../../lib/http';
import { apiEvent, call, lambdaContext } from '../support/invoke';
import { makeUser } from '../support/factories';
import { db, TABLE } from '../../lib/db/client';
import * as keys from '../../lib/keys';
import { handler as notFound } from '../../functions/docs/not-found';

const failing = http({}, async () => {
  throw new Error('the failure under test');
});

async function callLogged(token: string) {
  const lines: string[] = [];
  const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    const res = await call(failing, 'GET /failing', { token });
    return { res, logged: lines.map((l) => JSON.parse(l)).filter((l) => l.event === 'request_failed') };
  } finally {
    spy.mockRestore();
  }
}

describe('error envelope', () => {
  it('answers an unexpected failure 500 INTERNAL_ERROR without details, and logs it with its stack', async () => {
    const u = await makeUser();
    const { res, logged } = await callLogged(u.token);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ success: false, message: expect.any(String), code: 'INTERNAL_ERROR' });
    expect(res.text).not.toContain('the failure under test');
    expect(logged).toEqual([expect.objectContaining({ level: 'ERROR', message: 'the failure under test', stack: expect.stringContaining('Error') })]);
  });

  it('answers a deleted account 401 even when the handler failed, and still logs the failure', async () => {
    const u = await makeUser();
    await db.send(new DeleteCommand({ TableName: TABLE, Key: keys.user(u.id) }));
    const { res, logged } = await callLogged(u.token);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
    expect(logged).toEqual([expect.objectContaining({ level: 'ERROR', message: 'the failure under test' })]);
  });
});

describe('unknown routes ($default)', () => {
  it('answer 404 NOT_FOUND whatever the method, query, content type or body', async () => {
    const cases = [
      { routeKey: 'GET /no/such/route', opts: { query: { whatever: '1' } } },
      { routeKey: 'POST /posts/creat', opts: { body: { caption: 'a typo in the path' } } },
      { routeKey: 'POST /typo', opts: { rawBody: 'not json at all', headers: { 'content-type': 'text/plain' } } },
      { routeKey: 'PUT /typo', opts: { rawBody: '{"truncated":', headers: { 'content-type': 'application/json' } } },
    ];
    for (const { routeKey, opts } of cases) {
      const res = await call(notFound, routeKey, opts);
      expect({ routeKey, status: res.status, code: res.body.code }).toEqual({ routeKey, status: 404, code: 'NOT_FOUND' });
    }
  });
});

describe('a direct invocation without headers', () => {
  it('gets the 415 of a body without Content-Type, not a 500', async () => {
    const { handler: login } = await import('../../functions/auth/login');
    const event = { ...apiEvent('POST /auth/login', { rawBody: JSON.stringify({ identifier: 'x', password: 'y' }) }) } as Record<string, unknown>;
    delete event.headers;
    const res = (await login(event as never, lambdaContext())) as { statusCode: number; body: string };
    expect(res.statusCode).toBe(415);
    expect(JSON.parse(res.body)).toMatchObject({ success: false, code: 'UNSUPPORTED_MEDIA_TYPE' });
  });
});
