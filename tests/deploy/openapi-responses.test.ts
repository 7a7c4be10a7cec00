// Every route answers what docs/openapi.json says it answers: the valid request of
// tests/support/routes.ts gets the documented success status and a body that fits its
// schema exactly (no field missing, none undocumented, every listed object checked
// against its component), and its refusals fit the documented error answers.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { call } from '../support/invoke';
import { makeUser } from '../support/factories';
import { rows, type FixtureContext } from '../support/routes';
import { SchemaChecker, refsIn } from '../support/json-schema';
import { ROOT } from '../../scripts/lib/manifests.mjs';
import { ROUTE_DOCS } from '../../lib/openapi/responses';

type Response = { content?: { 'application/json'?: { schema: Record<string, unknown> } } };
const doc = JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8'));
const responsesOf = (method: string, path: string) => doc.paths[path][method.toLowerCase()].responses as Record<string, Response>;
const schemaOf = (r: Response | undefined) => r?.content?.['application/json']?.schema;

describe.each(rows())('%s', (_key, route) => {
  let ctx: FixtureContext;
  beforeAll(async () => { ctx = { me: await makeUser(), other: await makeUser() }; });
  const responses = responsesOf(route.method, route.path);

  it('answers the documented success status with a body that fits its schema exactly', async () => {
    const res = await call(route.handler, route.key, { token: ctx.me.token, ...(await route.valid(ctx)) });
    const documented = Object.keys(responses).filter((s) => s.startsWith('2')).sort();
    // The route's success status, and only a repeat's second one beside it (lib/openapi/responses.ts \`also\`).
    const { status, also } = ROUTE_DOCS[route.key]!;
    expect({ status: res.status, documented }).toEqual({ status, documented: [status, ...(also ? [also.status] : [])].map(String).sort() });
    const schema = schemaOf(responses[String(res.status)])!;
    const checker = new SchemaChecker(doc);
    expect(checker.check(schema, res.body)).toEqual([]);
    // The fixtures put something in every list, so each kind of object the answer documents was checked.
    expect(refsIn(schema).filter((name) => !checker.seen.has(name))).toEqual([]);
  });

  it('refuses with documented errors in the documented envelope', async () => {
    const valid = await route.valid(ctx);
    const refusals = [await call(route.handler, route.key, { token: ctx.me.token, ...valid, query: { ...valid.query, zz: '1' } })];
    if (route.auth) refusals.push(await call(route.handler, route.key, valid));
    for (const res of refusals) {
      const schema = schemaOf(responses[String(res.status)]);
      expect({ status: res.status, documented: schema !== undefined }).toEqual({ status: res.status, documented: true });
      expect(new SchemaChecker(doc).check(schema!, res.body)).toEqual([]);
    }
  });
});

describe('POST /reports, repeated and refused', () => {
  it('a further reporter gets the documented 200, a missing target the documented 404, each fitting its schema', async () => {
    const route = rows((r) => r.key === 'POST /reports')[0]![1];
    const ctx = { me: await makeUser(), other: await makeUser() };
    const valid = await route.valid(ctx);
    const responses = responsesOf(route.method, route.path);
    const first = await call(route.handler, route.key, { token: ctx.me.token, ...valid });
    const again = await call(route.handler, route.key, { token: (await makeUser()).token, ...valid });
    const missing = await call(route.handler, route.key, { token: ctx.me.token, body: { ...(valid.body as object), targetId: '01ARZ3NDEKTSV4RRFFQ69G5FAV' } });
    expect([first.status, again.status, missing.status]).toEqual([201, 200, 404]);
    for (const res of [again, missing]) expect(new SchemaChecker(doc).check(schemaOf(responses[String(res.status)])!, res.body)).toEqual([]);
  });
});
