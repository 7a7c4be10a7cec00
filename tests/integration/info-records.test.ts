// Contract section 9: every successful mutation, registration and login writes at least one
// log record with level INFO. Table-driven over every route the service deploys that is not a
// read (tests/support/routes.ts): a new mutation is checked by itself.
import { call } from '../support/invoke';
import { makeUser, uniq } from '../support/factories';
import { rows, type FixtureContext } from '../support/routes';
import { traceRecords } from '../support/comment-api';

describe.each(rows((r) => r.method !== 'GET'))('%s', (_key, route) => {
  it('a success writes at least one INFO record under its trace id', async () => {
    const ctx: FixtureContext = { me: await makeUser(), other: await makeUser() };
    const valid = await route.valid(ctx);
    const traceId = `info-${uniq('t')}`;
    const res = await call(route.handler, route.key, { token: ctx.me.token, ...valid, headers: { 'X-Trace-Id': traceId } });
    // A refusal would say why here.
    expect(res.status < 300 ? 'success' : `${res.status} ${res.text}`).toBe('success');
    const records = (await traceRecords(traceId)) as { level: string; action: { type: string } }[];
    expect(records.filter((r) => r.level === 'INFO').length).toBeGreaterThanOrEqual(1);
    for (const r of records) expect(r.action.type).toMatch(/^[A-Z]+(_[A-Z]+)*$/);
  });
});
