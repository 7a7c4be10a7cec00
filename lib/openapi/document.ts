// The OpenAPI 3.1 document, built from the routes of the function manifests and the zod
// schemas each handler validates with (handler.spec), so the docs cannot drift from the
// validation. Requests use the input side of the schemas (what a client sends, before
// trimming and other transforms); a part JSON Schema cannot express (a refinement, a
// transform) is left open rather than failing the build. Responses come from
// ./responses.ts and ./schemas.ts. Every request body, parameter and answer carries an
// `example` (./examples.ts), which tools send or mock instead of values generated from the
// patterns. Used by scripts/openapi.mjs and by the tests.
import * as z from 'zod/mini';
import pkg from '../../package.json';
import { components } from './schemas';
import { ROUTE_DOCS } from './responses';
import { BODY_EXAMPLES, errorExample, exampleOf } from './examples';
import { IDEMPOTENCY_KEY_PATTERN } from '../fields';
import { SIM_TIMESTAMP_PATTERN, TOKEN_PATTERN, TRACEPARENT_PATTERN } from '../http/trace';

type Schema = Record<string, unknown>;

export interface RouteSpecLike {
  params?: z.ZodMiniType;
  query?: z.ZodMiniType;
  body?: z.ZodMiniType;
  auth?: boolean;
  /** Set (lib/http's guard) when the route honours Idempotency-Key. */
  idempotent?: unknown;
}

export interface DocRoute {
  /** The function's name in its manifest: the operationId. */
  name: string;
  method: string;
  path: string;
  spec: RouteSpecLike;
}

/** The catch-all route of the HTTP API ($default): the 404 answer, not an operation. */
export const isCatchAll = (path: string) => path === '*' || path === '$default';
/** The API reference page and its files (functions/docs/page.ts): HTML for people, not an operation. */
export const isDocsPage = (path: string) => path === '/docs' || path.startsWith('/docs/');
/** A route the document lists as an operation (not the catch-all, not the docs page). */
export const isOperation = (path: string) => !isCatchAll(path) && !isDocsPage(path);

export function jsonSchema(schema: z.ZodMiniType): Schema {
  try {
    const out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Schema;
    delete out.$schema;
    return out;
  } catch {
    return { description: 'not expressible in JSON Schema; see the error details of a refused request' };
  }
}

const CODES: Record<number, string> = {
  400: 'Bad request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not found', 409: 'Conflict',
  422: 'Unprocessable content', 413: 'Payload too large', 415: 'Unsupported media type', 429: 'Too many attempts', 500: 'Internal error',
};

const traceHeader = { 'X-Trace-Id': { $ref: '#/components/headers/XTraceId' } };

function errorResponses(route: DocRoute, extra: Record<number, string[]> = {}): Record<string, Schema> {
  const byStatus = new Map<number, Set<string>>();
  const add = (status: number, ...codes: string[]) => {
    const set = byStatus.get(status) ?? new Set<string>();
    codes.forEach((c) => set.add(c));
    byStatus.set(status, set);
  };
  const { spec } = route;
  add(400, 'VALIDATION_ERROR'); // the trace headers can always be malformed
  // Any request may carry a body, and the stack checks it whether or not the route takes one
  // (a route without a body schema then refuses any field of it).
  add(400, 'INVALID_JSON'); add(413, 'PAYLOAD_TOO_LARGE'); add(415, 'UNSUPPORTED_MEDIA_TYPE');
  if (spec.auth ?? true) add(401, 'UNAUTHORIZED');
  if (spec.params) add(404, 'NOT_FOUND');
  if (spec.idempotent) { add(409, 'IDEMPOTENCY_KEY_IN_USE'); add(422, 'IDEMPOTENCY_KEY_REUSED'); }
  for (const [status, codes] of Object.entries(extra)) add(Number(status), ...codes);
  add(500, 'INTERNAL_ERROR');

  const out: Record<string, Schema> = {};
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const codes = [...byStatus.get(status)!];
    const headers: Schema = { ...traceHeader };
    if (codes.includes('UNAUTHORIZED')) headers['WWW-Authenticate'] = { schema: { type: 'string', const: 'Bearer' }, example: 'Bearer' };
    if (codes.includes('TOO_MANY_ATTEMPTS')) headers['Retry-After'] = { schema: { type: 'integer' }, description: 'seconds', example: 900 };
    out[String(status)] = {
      description: `${CODES[status] ?? 'Error'}: ${codes.join(', ')}`,
      headers,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, example: errorExample(codes[0]!) } },
    };
  }
  return out;
}

const routeKey = (route: DocRoute) => `${route.method.toUpperCase()} ${route.path}`;

function parameters(route: DocRoute): Schema[] {
  const out: Schema[] = [];
  const from = (schema: z.ZodMiniType | undefined, where: 'path' | 'query') => {
    if (!schema) return;
    const s = jsonSchema(schema);
    const required = new Set((s.required as string[] | undefined) ?? []);
    for (const [name, prop] of Object.entries((s.properties as Record<string, Schema> | undefined) ?? {})) {
      // An integer parameter's default is written as the string the query would carry.
      const schema = prop.type === 'integer' && typeof prop.default === 'string' ? { ...prop, default: Number(prop.default) } : prop;
      out.push({ name, in: where, required: where === 'path' || required.has(name), schema, example: exampleOf(schema, { components, owner: routeKey(route), at: name }) });
    }
  };
  from(route.spec.params, 'path');
  from(route.spec.query, 'query');
  if (route.spec.idempotent) out.push({ $ref: '#/components/parameters/IdempotencyKey' });
  for (const p of ['XTraceId', 'Traceparent', 'XScenarioId', 'XStepId', 'XSimTimestamp']) out.push({ $ref: `#/components/parameters/${p}` });
  return out;
}

/**
 * Rules of a body across its fields that a handler checks itself, stated for clients and
 * validators here rather than as zod meta: meta travels in the function's bundle, and
 * postsCreate is at its bytes budget (docs/OPERATIONS.md, "Bundle budget").
 */
const BODY_RULES: Record<string, Schema> = {
  'POST /posts/create': {
    description: 'Exactly one of image and media; image_public_id only with image.',
    // An empty image_public_id is its default.
    oneOf: [
      { required: ['image'], not: { required: ['media'] } },
      { required: ['media'], not: { required: ['image'] }, properties: { image_public_id: { const: '' } } },
    ],
  },
  'POST /posts/edit/{post_id}': { description: 'caption, altText or both.', minProperties: 1 },
};

function operation(route: DocRoute): Schema {
  const key = routeKey(route);
  const doc = ROUTE_DOCS[key];
  if (!doc) throw new Error(`lib/openapi/responses.ts has no entry for "${key}"`);
  const envelope = (body: Record<string, Schema>): Schema => ({
    type: 'object',
    properties: { success: { type: 'boolean', const: true }, ...body },
    required: ['success', ...Object.keys(body)],
  });
  const success = doc.raw ?? (doc.alternative
    ? { oneOf: [envelope(doc.body), { ...envelope(doc.alternative.body), description: doc.alternative.when }] }
    : envelope(doc.body));
  const content = { 'application/json': { schema: success, example: exampleOf(success, { components, owner: key }) } };
  const op: Schema = {
    operationId: route.name,
    tags: [(route.path.split('/')[1] || 'root').replace(/\.json$/, '')],
    summary: doc.summary,
    parameters: parameters(route),
    responses: {
      [String(doc.status)]: { description: doc.status === 201 ? 'Created' : doc.status === 202 ? 'Accepted' : 'OK', headers: traceHeader, content },
      ...(doc.also ? { [String(doc.also.status)]: { description: `OK: ${doc.also.when}`, headers: traceHeader, content } } : {}),
      ...errorResponses(route, doc.errors),
    },
  };
  if (route.spec.body) {
    const schema = { ...jsonSchema(route.spec.body), ...BODY_RULES[key] };
    // The required fields, or a whole body where those alone are not a good request.
    const example = key in BODY_EXAMPLES ? BODY_EXAMPLES[key] : exampleOf(schema, { components, owner: `${key} body`, requiredOnly: true });
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema, example } },
      description: 'JSON, at most 100 KiB. Text is trimmed before it is checked; lengths count Unicode code points. Unknown fields are refused.',
    };
  }
  if (route.spec.auth === false) op.security = [];
  return op;
}

const headerParam = (name: string, description: string, schema: Schema = { type: 'string', pattern: TOKEN_PATTERN }) =>
  ({ name, in: 'header', required: false, description, schema, example: exampleOf(schema, { components, owner: 'header', at: name }) });

export function buildDocument(routes: DocRoute[]): Schema {
  const paths: Record<string, Record<string, Schema>> = {};
  const sorted = [...routes].filter((r) => isOperation(r.path))
    .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  for (const route of sorted) {
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Aperture API',
      version: pkg.version,
      description: 'Social image-sharing backend. Every error answers { success: false, message, code, details? }; every answer carries X-Trace-Id.',
    },
    servers: [{ url: '{baseUrl}', variables: { baseUrl: { default: 'http://localhost:3000', description: 'the stage\'s HTTP API URL' } } }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: components,
      headers: { XTraceId: { description: 'the trace id of the request: give it to GET /logs/trace/{traceId}', schema: { type: 'string' }, example: exampleOf({ type: 'string' }, { components, owner: 'header', at: 'X-Trace-Id' }) } },
      parameters: {
        XTraceId: headerParam('X-Trace-Id', 'trace id of this request; default: the traceparent\'s, else a new one'),
        Traceparent: headerParam('traceparent', 'W3C trace context; its trace id is the request\'s unless X-Trace-Id is sent', { type: 'string', pattern: TRACEPARENT_PATTERN }),
        XScenarioId: headerParam('X-Scenario-Id', 'fills scenarioId of the log records'),
        XStepId: headerParam('X-Step-Id', 'fills stepId of the log records'),
        XSimTimestamp: headerParam('X-Sim-Timestamp', 'a finite decimal number; fills simTimestamp (default: now, epoch ms)', { type: 'string', pattern: SIM_TIMESTAMP_PATTERN }),
        IdempotencyKey: headerParam('Idempotency-Key',
          'The same user repeating the same request (method, path, body) with the same key within 24 h gets the first answer again (status, body) and nothing is created twice. '
          + 'The key with another method, path or body is 422 IDEMPOTENCY_KEY_REUSED; a repeat while the first is still being answered is 409 IDEMPOTENCY_KEY_IN_USE. A failed request does not hold the key.',
          { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN }),
      },
    },
  };
}
