// Every route the service deploys (functions/*/functions.json, through serverless.yml), with
// its real handler and spec, for the table-driven security and bad-input suites. A new route
// is picked up by itself; what it needs from you is an entry in FIXTURES below: a valid
// request (path values, body) for a caller `me` and another user `other`. Add the keys of
// what a successful call would create to `creates`, so a refused call can be shown to
// have created none of it.
import { join } from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { ROOT, routes } from '../../scripts/lib/manifests.mjs';
import { jsonSchema, isCatchAll } from '../../lib/openapi/document';
import type { RouteSpecLike } from '../../lib/openapi/document';
import { keys } from '../../lib/keys';
import { call, type CallOptions } from './invoke';
import { uniq, type TestUser } from './factories';
import { handler as login } from '../../functions/auth/login';

type Handler = ((event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2 | void>) & { spec: RouteSpecLike };

export interface FixtureContext { me: TestUser; other: TestUser }
export interface Valid extends Pick<CallOptions, 'params' | 'query' | 'body'> {
  /** Keys a successful call would create: a refused call must leave each missing. */
  creates?: { PK: string; SK: string }[];
}
type Fixture = (ctx: FixtureContext) => Valid | Promise<Valid>;

export const FIXTURES: Record<string, Fixture> = {
  'POST /auth/register': () => {
    const username = uniq('fx');
    return {
      body: { name: 'Fixture User', username, email: `${username}@example.test`, password: 'correct horse' },
      creates: [keys.username(username), keys.email(`${username}@example.test`)],
    };
  },
  'POST /auth/login': ({ me }) => ({ body: { identifier: me.email, password: me.password } }),
  'GET /users/me': () => ({}),
  'GET /users/{identifier}': ({ other }) => ({ params: { identifier: other.username } }),
  'POST /users/profile/edit': () => {
    const username = uniq('fe');
    return { body: { name: 'Edited Name', username, bio: 'edited' }, creates: [keys.username(username)] };
  },
  'GET /logs/trace/{traceId}': async ({ me }) => {
    // A trace with a record of `me`: a login under a trace id of our choosing.
    const traceId = `fixture-${uniq('t')}`;
    const res = await call(login, 'POST /auth/login', { body: { identifier: me.email, password: me.password }, headers: { 'X-Trace-Id': traceId } });
    if (res.status !== 200) throw new Error(`fixture login failed: ${res.status}`);
    return { params: { traceId } };
  },
  'GET /openapi.json': () => ({}),
};

export interface Route {
  key: string;
  method: string;
  path: string;
  name: string;
  handler: Handler;
  auth: boolean;
  /** Honours Idempotency-Key. */
  idempotent: boolean;
  pathParams: string[];
  /** JSON Schema (input side) of the body, when the route takes one. */
  body?: { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  query?: { properties?: Record<string, Record<string, unknown>> };
  valid: Fixture;
}

export const ROUTES: Route[] = routes().filter((r) => !isCatchAll(r.path)).map((r) => {
  const handler = (require(join(ROOT, r.file)) as Record<string, Handler>)[r.exportName]!;
  const spec = handler.spec;
  return {
    key: r.key,
    method: r.method,
    path: r.path,
    name: r.name,
    handler,
    auth: spec.auth ?? true,
    idempotent: spec.idempotent ?? false,
    pathParams: [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
    body: spec.body ? jsonSchema(spec.body) as Route['body'] : undefined,
    query: spec.query ? jsonSchema(spec.query) as Route['query'] : undefined,
    valid: FIXTURES[r.key] ?? (() => { throw new Error(`tests/support/routes.ts has no fixture for ${r.key}`); }),
  };
});

/** `test.each` rows: [route key, route]. */
export const rows = (pick: (r: Route) => boolean = () => true) => ROUTES.filter(pick).map((r) => [r.key, r] as const);
