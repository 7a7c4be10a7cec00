import { call } from '../support/invoke';
import { makeUser, uniq } from '../support/factories';
import { getItem, queryAll } from '../support/db';
import { handler as edit } from '../../functions/users/edit';
import { handler as me } from '../../functions/users/me';
import { handler as register } from '../../functions/auth/register';
import { handler as login } from '../../functions/auth/login';
import { handler as passwordH } from '../../functions/auth/password';
import { handler as traceLogs } from '../../functions/logs/trace';
import { signToken } from '../../lib/auth/tokens';
import * as keys from '../../lib/keys';
import { dynamo } from '../../lib/db/client';

const read = (token: string, traceId: string) => call(traceLogs, 'GET /logs/trace/{traceId}', { token, params: { traceId } });

describe('trace context', () => {
  it('echoes X-Trace-Id on success and on every kind of error', async () => {
    const u = await makeUser();
    const t = uniq('t');
    expect((await call(me, 'GET /users/me', { token: u.token, headers: { 'X-Trace-Id': t } })).headers['x-trace-id']).toBe(t);
    expect((await call(me, 'GET /users/me', { headers: { 'X-Trace-Id': t } })).headers['x-trace-id']).toBe(t);
    const bad = await call(edit, 'POST /users/profile/edit', { token: u.token, body: {}, headers: { 'X-Trace-Id': t } });
    expect(bad.status).toBe(400);
    expect(bad.headers['x-trace-id']).toBe(t);
    const generated = await call(me, 'GET /users/me', { token: u.token });
    expect(generated.headers['x-trace-id']).toMatch(/^[0-9A-Z]{26}$/);
  });

  it('uses the trace id of a W3C traceparent when there is no X-Trace-Id', async () => {
    const u = await makeUser();
    const res = await call(me, 'GET /users/me', { token: u.token, headers: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' } });
    expect(res.headers['x-trace-id']).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  });

  it('refuses malformed trace headers with 400 naming the header, and changes nothing', async () => {
    const u = await makeUser();
    const malformed: Record<string, string>[] = [{ 'X-Trace-Id': 'bad id' }, { 'X-Sim-Timestamp': 'NaN' }, { 'X-Scenario-Id': '../x' }, { 'X-Step-Id': 'x'.repeat(129) }];
    for (const headers of malformed) {
      const res = await call(edit, 'POST /users/profile/edit', { token: u.token, body: { bio: 'never' }, headers });
      expect(res.status).toBe(400);
      expect(res.body.details[0].path).toBe(Object.keys(headers)[0]!.toLowerCase());
      expect(res.headers['x-trace-id']).toBeTruthy();
    }
    expect((await getItem(keys.user(u.id)))?.bio).toBe('');
  });
});

describe('log records', () => {
  it('records registration, login and edits with scenario, step, simulated time and state diffs, in order', async () => {
    const t = uniq('scenario');
    const username = uniq('tr');
    const password = 'a secret password';
    const h = (step: string, sim: number) => ({ 'X-Trace-Id': t, 'X-Scenario-Id': 'sc-1', 'X-Step-Id': step, 'X-Sim-Timestamp': String(sim) });
    const reg = await call(register, 'POST /auth/register', {
      body: { name: 'Tracy Trace', username, email: `${username}@example.test`, password }, headers: h('1', 3000),
    });
    expect(reg.status).toBe(201);
    const token = reg.body.token as string;
    // Sent out of simulated order: the trace answers by simTimestamp, then by writing order.
    await call(edit, 'POST /users/profile/edit', { token, body: { bio: 'second' }, headers: h('3', 5000) });
    await call(login, 'POST /auth/login', { body: { identifier: username, password }, headers: h('2', 4000) });
    await call(edit, 'POST /users/profile/edit', { token, body: { bio: 'third', gender: 'x' }, headers: h('4', 5000) });

    const res = await read(token, t);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Trace logs retrieved successfully');
    const { data } = res.body;
    expect(data.traceId).toBe(t);
    expect(data.count).toBe(4);
    expect(data.logs.map((l: { action: { type: string } }) => l.action.type)).toEqual(['USER_REGISTERED', 'USER_LOGGED_IN', 'PROFILE_UPDATED', 'PROFILE_UPDATED']);
    expect(data.logs.map((l: { stepId: string }) => l.stepId)).toEqual(['1', '2', '3', '4']);
    expect(data.logs.map((l: { simTimestamp: number }) => l.simTimestamp)).toEqual([3000, 4000, 5000, 5000]);
    for (const l of data.logs) {
      expect(l).toMatchObject({ scenarioId: 'sc-1', traceId: t, level: 'INFO', actor: { type: 'user', id: reg.body.user._id } });
      expect(l.action.description).toMatch(/\w+ .*\./);
    }
    expect(data.logs[0].stateDiff.before).toEqual({});
    // Named as the User object names them; never the e-mail (private) or the hash.
    expect(data.logs[0].stateDiff.after).toEqual({
      _id: reg.body.user._id, name: 'Tracy Trace', username, bio: '', gender: '', image: '', emailVerified: false, createdAt: reg.body.user.createdAt,
    });
    expect(data.logs[0].stateDiff.changes.sort()).toEqual(['_id', 'bio', 'createdAt', 'emailVerified', 'gender', 'image', 'name', 'username']);
    expect(data.logs[2].stateDiff).toMatchObject({ changes: ['bio', 'updatedAt'], before: { bio: '' }, after: { bio: 'second' } });
    expect(data.logs[3].stateDiff.changes.sort()).toEqual(['bio', 'gender', 'updatedAt']);
    expect(data.logs[3].stateDiff).toMatchObject({ before: { bio: 'second', gender: '' }, after: { bio: 'third', gender: 'x' } });
    expect(data.logs[3].payload).toMatchObject({ body: { bio: 'third', gender: 'x' } });

    const text = JSON.stringify(res.body);
    expect(text).not.toContain(password);
    expect(text).not.toContain(token);
    expect(text).not.toMatch(/scrypt\$/);
    expect(text).not.toContain('expiresAt');

    const stored = await queryAll(keys.trace(t));
    const days = (Number(stored[0]!.expiresAt) - Date.now() / 1000) / 86_400;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);
  });

  it('writes one WARN record for an authenticated request that is refused, none for a 401', async () => {
    const u = await makeUser();
    const t = uniq('warn');
    await call(edit, 'POST /users/profile/edit', { token: u.token, body: { bio: 'b'.repeat(200), password: 'leak-me' }, headers: { 'X-Trace-Id': t } });
    await call(edit, 'POST /users/profile/edit', { token: 'not-a-token', body: { bio: 'x' }, headers: { 'X-Trace-Id': t } });
    const res = await read(u.token, t);
    expect(res.body.data.count).toBe(1);
    const [warn] = res.body.data.logs;
    expect(warn).toMatchObject({ level: 'WARN', action: { type: 'REQUEST_REFUSED' }, actor: { id: u.id } });
    expect(warn.payload.error).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    expect(JSON.stringify(warn)).not.toContain('leak-me');
  });

  it('writes one WARN record for a wrong password on a route whose token is good, none for a wrong password at login', async () => {
    const u = await makeUser();
    const t = uniq('pw');
    const wrong = await call(passwordH, 'POST /auth/password', { token: u.token, body: { currentPassword: 'not the password', newPassword: 'a new long password' }, headers: { 'X-Trace-Id': t } });
    expect(wrong.status).toBe(401);
    await call(login, 'POST /auth/login', { body: { identifier: u.username, password: 'not the password' }, headers: { 'X-Trace-Id': t } });
    const res = await read(u.token, t);
    expect(res.body.data.count).toBe(1);
    const [warn] = res.body.data.logs;
    expect(warn).toMatchObject({ level: 'WARN', action: { type: 'REQUEST_REFUSED' }, actor: { id: u.id } });
    expect(warn.payload.error).toEqual({ status: 401, code: 'INVALID_CREDENTIALS' });
    expect(JSON.stringify(warn)).not.toContain('not the password');
  });

  it('shows a caller only their own records; a logs:read token sees all; nothing visible is 404', async () => {
    const [a, b] = [await makeUser(), await makeUser()];
    const t = uniq('vis');
    await call(edit, 'POST /users/profile/edit', { token: a.token, body: { bio: 'a' }, headers: { 'X-Trace-Id': t } });
    await call(edit, 'POST /users/profile/edit', { token: b.token, body: { bio: 'b' }, headers: { 'X-Trace-Id': t } });
    const asA = await read(a.token, t);
    expect(asA.body.data.logs.map((l: { actor: { id: string } }) => l.actor.id)).toEqual([a.id]);
    const c = await makeUser();
    const asC = await read(c.token, t);
    expect(asC.status).toBe(404);
    expect(asC.body.code).toBe('NOT_FOUND');
    const admin = await signToken({ userId: c.id, sessionId: c.sessionId, epoch: 0 }, ['logs:read']);
    const all = await read(admin, t);
    expect(all.body.data.count).toBe(2);
    expect(all.body.data.logs.map((l: { actor: { id: string } }) => l.actor.id).sort()).toEqual([a.id, b.id].sort());
    expect((await read(admin, uniq('none'))).status).toBe(404);
  });

  it('refuses a malformed trace id in the path', async () => {
    const u = await makeUser();
    const res = await read(u.token, 'bad id!');
    expect(res.status).toBe(400);
    expect(res.body.details[0].path).toBe('traceId');
  });
});

describe('GET /logs/trace reads', () => {
  // The partitions each Query of a call asked for, and each GetItem's, from the module-scope client.
  let asked: { queried: string[]; got: string[] } | undefined;
  dynamo.middlewareStack.add((next) => async (args) => {
    const input = args.input as { KeyConditionExpression?: string; ExpressionAttributeValues?: Record<string, unknown>; Key?: { PK?: unknown } };
    if (asked && input.KeyConditionExpression) asked.queried.push(String(Object.values(input.ExpressionAttributeValues ?? {})[0]));
    if (asked && input.Key?.PK) asked.got.push(String(input.Key.PK));
    return next(args);
  }, { step: 'initialize', name: 'recordQueriedPartitions' });
  const partitionsOf = async (fn: () => Promise<unknown>) => {
    asked = { queried: [], got: [] };
    try {
      await fn();
      return asked;
    } finally {
      asked = undefined;
    }
  };

  it('not the caller\'s block lists: trace records embed no user ids to hide', async () => {
    const u = await makeUser();
    const traceId = uniq('tr');
    await call(edit, 'POST /users/profile/edit', { token: u.token, body: { bio: 'traced' }, headers: { 'x-trace-id': traceId } });
    const onTrace = await partitionsOf(() => call(traceLogs, 'GET /logs/trace/{traceId}', { token: u.token, params: { traceId } }));
    expect(onTrace.queried).toEqual([keys.trace(traceId)]);
    expect(onTrace.got).not.toContain(keys.goneAll());
    // Any other authenticated GET does read them (the recorder sees them): the block Query, and
    // the GONE partition whole or its version alone (lib/graph/hidden.ts goneIds).
    const onMe = await partitionsOf(() => call(me, 'GET /users/me', { token: u.token }));
    expect(onMe.queried).toContain(keys.user(u.id).PK);
    expect([...onMe.queried, ...onMe.got]).toContain(keys.goneAll());
  });
});
