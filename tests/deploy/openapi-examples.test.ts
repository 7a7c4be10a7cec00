// The examples of docs/openapi.json (lib/openapi/examples.ts): every request body, parameter
// and answer has one; each is valid by the document's own rules (a JSON Schema validator,
// ajv, with the patterns' `u` flag and the formats the document names), an answer's example
// shows no field its schema does not document, and a request's example is what the route's
// handler accepts (its zod schemas). And the pagination cursors: the nextCursor each kind of
// list emits is what the document says it is, and what its `cursor` parameter takes back.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import * as z from 'zod/mini';
import { ROOT, routes } from '../../scripts/lib/manifests.mjs';
import { isOperation } from '../../lib/openapi/document';
import { isCursor } from '../../lib/comments/fields';
import { SchemaChecker } from '../support/json-schema';
import { call } from '../support/invoke';
import { makeUser } from '../support/factories';
import { makePost } from '../support/posts';
import { follow } from '../support/graph';
import { comment, created } from '../support/comment-api';
import { handler as feedH } from '../../functions/posts/feed';
import { handler as followersH } from '../../functions/users/followers';
import { handler as commentsH } from '../../functions/comments/post';

type Schema = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const doc = JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8'));

const ajv = new Ajv2020({ strict: false, allErrors: true, unicodeRegExp: true });
// The formats the document names, as the service means them.
ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
ajv.addFormat('email', /@/);
ajv.addFormat('uri', /^[A-Za-z][A-Za-z0-9+.-]*:/);
ajv.addFormat('password', /[\s\S]*/);
// The components, so an answer's $ref resolves as it does in the document.
ajv.addSchema({ $id: 'https://aperture.example/openapi', components: doc.components });
const withRefs = (schema: Schema): Schema => JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"https://aperture.example/openapi#/components/'));

function problems(schema: Schema, value: unknown): string[] {
  const validate = ajv.compile(withRefs(schema));
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '$'} ${e.message}`);
}

interface Example { where: string; schema: Schema; example: unknown; has: boolean; answer?: boolean }

const resolveParam = (p: Schema): Schema => (p.$ref ? doc.components.parameters[String(p.$ref).split('/').pop()!] : p);

/** Every place the document should hold an example: parameters, request bodies, answers (and their headers). */
function examples(): Example[] {
  const out: Example[] = [];
  for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Schema>>)) {
    for (const [method, op] of Object.entries(ops)) {
      const key = `${method.toUpperCase()} ${path}`;
      for (const raw of op.parameters as Schema[]) {
        const p = resolveParam(raw);
        out.push({ where: `${key} ${p.in} ${p.name}`, schema: p.schema, example: p.example, has: 'example' in p });
      }
      const body = op.requestBody?.content?.['application/json'];
      if (op.requestBody) out.push({ where: `${key} body`, schema: body?.schema ?? {}, example: body?.example, has: body !== undefined && 'example' in body });
      for (const [status, res] of Object.entries(op.responses as Record<string, Schema>)) {
        const content = res.content?.['application/json'];
        out.push({ where: `${key} ${status}`, schema: content?.schema ?? {}, example: content?.example, has: content !== undefined && 'example' in content, answer: true });
        for (const [name, h] of Object.entries((res.headers ?? {}) as Record<string, Schema>)) {
          const header = h.$ref ? doc.components.headers[String(h.$ref).split('/').pop()!] : h;
          out.push({ where: `${key} ${status} header ${name}`, schema: header.schema, example: header.example, has: 'example' in header });
        }
      }
    }
  }
  return out;
}

const all = examples();

describe('the examples of docs/openapi.json', () => {
  it('every parameter, request body and answer has one', () => {
    expect(all.filter((e) => !e.has).map((e) => e.where)).toEqual([]);
    expect(all.length).toBeGreaterThan(500); // the walk found the document's places
  });

  it.each(all.map((e) => [e.where, e] as const))('%s: valid by its schema', (_where, e) => {
    expect(problems(e.schema, e.example)).toEqual([]);
    // An answer shows only documented fields (the stricter checker of the answer tests).
    if (e.answer) expect(new SchemaChecker(doc).check(e.schema, e.example)).toEqual([]);
  });

  const deployed = routes().filter((r) => isOperation(r.path));
  it.each(deployed.map((r) => [r.key, r] as const))('%s: its request examples pass the handler\'s schemas', (_key, route) => {
    const mod = require(join(ROOT, route.file)) as Record<string, { spec: { body?: z.ZodMiniType; params?: z.ZodMiniType; query?: z.ZodMiniType } }>;
    const { spec } = mod[route.exportName]!;
    const op = doc.paths[route.path][route.method.toLowerCase()];
    const params = (op.parameters as Schema[]).map(resolveParam);
    // A query or path value arrives as text.
    const values = (where: string) => Object.fromEntries(params.filter((p) => p.in === where).map((p) => [p.name, String(p.example)]));
    const failures: unknown[] = [];
    const accept = (what: string, schema: z.ZodMiniType | undefined, value: unknown) => {
      if (!schema) return;
      const r = z.safeParse(schema, value);
      if (!r.success) failures.push({ what, value, issues: r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) });
    };
    accept('path', spec.params, values('path'));
    accept('query', spec.query, values('query'));
    accept('body', spec.body, op.requestBody?.content['application/json'].example);
    expect(failures).toEqual([]);
  });
});

describe('the pagination cursors, as each kind of list emits them', () => {
  const cursorParam = (path: string) => resolveParam((doc.paths[path].get.parameters as Schema[]).find((p) => p.name === 'cursor')!).schema;
  const paginationOf = (path: string, at: (body: Schema) => Schema) => {
    const schema = doc.paths[path].get.responses['200'].content['application/json'].schema;
    return at(schema.properties);
  };
  /** The nextCursor of a first page of one: valid by the answer's schema and by the cursor parameter's, and taken back. */
  async function roundTrip(path: string, pagination: Schema, nextCursor: unknown, again: (cursor: string) => Promise<{ status: number }>) {
    expect(typeof nextCursor).toBe('string');
    expect(new SchemaChecker(doc).check(pagination, { hasMore: true, nextCursor })).toEqual([]);
    expect(problems(pagination, { hasMore: true, nextCursor })).toEqual([]);
    expect(problems(cursorParam(path), nextCursor)).toEqual([]);
    expect((await again(nextCursor as string)).status).toBe(200);
  }

  it('the home feed: the id of the last post', async () => {
    const me = await makeUser();
    await makePost(me);
    await makePost(me);
    const first = await call(feedH, 'GET /posts/feed', { token: me.token, query: { limit: '1' } });
    expect(first.status).toBe(200);
    expect(first.body.pagination.nextCursor).toBe(first.body.posts[0]._id);
    await roundTrip('/posts/feed', paginationOf('/posts/feed', (p) => p.pagination), first.body.pagination.nextCursor,
      (cursor) => call(feedH, 'GET /posts/feed', { token: me.token, query: { limit: '1', cursor } }));
  });

  it('the user lists: the time and id of the last relation', async () => {
    const [me, a, b] = [await makeUser(), await makeUser(), await makeUser()];
    await follow(a, me);
    await follow(b, me);
    const path = '/users/{identifier}/followers';
    const first = await call(followersH, `GET ${path}`, { token: me.token, params: { identifier: me.id }, query: { limit: '1' } });
    expect(first.status).toBe(200);
    await roundTrip(path, paginationOf(path, (p) => p.pagination), first.body.pagination.nextCursor,
      (cursor) => call(followersH, `GET ${path}`, { token: me.token, params: { identifier: me.id }, query: { limit: '1', cursor } }));
  });

  it('comments and replies: the createdAt of the last one', async () => {
    const me = await makeUser();
    const post = await makePost(me);
    created(await comment(me, post._id, 'one'));
    created(await comment(me, post._id, 'two'));
    const path = '/comments/post/{post_id}';
    const first = await call(commentsH, `GET ${path}`, { token: me.token, params: { post_id: post._id }, query: { limit: '1' } });
    expect(first.status).toBe(200);
    expect(isCursor(first.body.data.pagination.nextCursor)).toBe(true);
    await roundTrip(path, paginationOf(path, (p) => p.data.properties.pagination), first.body.data.pagination.nextCursor,
      (cursor) => call(commentsH, `GET ${path}`, { token: me.token, params: { post_id: post._id }, query: { limit: '1', cursor } }));
  });
});
