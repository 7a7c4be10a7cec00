// The one middy stack of every endpoint. `http(spec, fn)` gives a Lambda handler for API
// Gateway HTTP API (payload v2) whose fn only ever sees validated input and, on
// authenticated routes, a verified caller. Order of the stack:
//   header names lower-cased -> trace context (+ CORS headers) -> body guard + JSON parser -> validation
//   -> authentication -> handler; the error envelope answers every failure. A route that needs a
//   scope (RouteSpec.scope) checks the token and its scope first: without it, every request is
//   403, whatever it carries.
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import { readTrace } from './trace';
import { headerNames } from './headers';
import { bodyParser } from './body';
import { validation, type RouteSchemas } from './validation';
import { authentication } from './auth';
import { errorEnvelope } from './errors';
import type { IdempotencyGuard } from './idempotency';
import { setLogTrace, withLogScope } from '../log';
import { requestLog } from './request-log';
import { scrubHidden } from '../graph/hidden';
import { state, type Middleware, type MiddyRequest } from './state';
import type { ApiReply, ApiRequest, Caller } from './request';
import { toResponse } from './response';

export type { ApiReply, ApiRequest } from './request';

export interface RouteSpec<P extends z.ZodMiniType, Q extends z.ZodMiniType, B extends z.ZodMiniType> extends RouteSchemas<P, Q, B> {
  /** Defaults to true: every endpoint but register, login and the OpenAPI document needs a token. */
  auth?: boolean;
  /**
   * Honour the Idempotency-Key header (the creations of contract section 8): the guard
   * `idempotent` of ./idempotency. A function rather than a flag, so that only the functions
   * that honour the header bundle it (3.3 to 4.3 KB minified, with its DynamoDB commands).
   */
  idempotent?: IdempotencyGuard;
  /**
   * Whether the answer's embedded user ids are scrubbed of users hidden from the caller. By
   * default a GET's are; false for answers that embed no user ids (trace records: the caller's
   * block lists are not read), true for a write whose answer embeds some (a post edit's likes).
   */
  scrubHidden?: boolean;
  /** The $default route: whatever the request carries, the answer is its 404 (no body parsing, no validation). */
  catchAll?: boolean;
  /**
   * A scope the token must carry (the moderation routes: `requireScope('moderate')` of
   * ./scope). Checked with the token, before the request is parsed or validated: to anyone
   * without it the route answers 403 only. A middleware rather than a name, so that only the
   * functions that need it bundle it (every byte of this file is in every function).
   */
  scope?: Middleware;
}

/**
 * CORS headers on every answer, errors included, for callers that reach a function without
 * the HTTP API's CORS (direct invocations). Behind the HTTP API, its own CORS configuration
 * (serverless.yml, provider.httpApi.cors) answers preflights and sets the exposed headers,
 * so they are not repeated here.
 */
const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'Authorization,Content-Type,Idempotency-Key,X-Trace-Id,X-Scenario-Id,X-Step-Id,X-Sim-Timestamp,traceparent',
};

const traceContext = (): Middleware => {
  const stamp = (request: MiddyRequest) => {
    if (request.response) {
      request.response.headers = { ...CORS_HEADERS, ...request.response.headers, 'X-Trace-Id': state(request).trace.traceId };
    }
    setLogTrace(undefined);
  };
  return {
    before: (request) => {
      const { trace, problems } = readTrace(request.event.headers ?? {});
      Object.assign(state(request), { trace, traceProblems: problems });
      setLogTrace(trace.traceId);
    },
    after: stamp,
    onError: stamp,
  };
};

export function http<P extends z.ZodMiniType, Q extends z.ZodMiniType, B extends z.ZodMiniType>(
  spec: RouteSpec<P, Q, B>,
  fn: (req: ApiRequest<z.output<P>, z.output<Q>, z.output<B>>) => Promise<ApiReply>,
) {
  const needsAuth = spec.auth ?? true;
  // Reads embed user ids that may have to be hidden from the caller (lib/graph/hidden.ts).
  const scrubs = (event: APIGatewayProxyEventV2) => needsAuth && (spec.scrubHidden ?? event.requestContext?.http?.method === 'GET');
  const core = async (event: APIGatewayProxyEventV2, context: Context): Promise<APIGatewayProxyStructuredResultV2> => {
    const internal = state({ context });
    const req: ApiRequest<z.output<P>, z.output<Q>, z.output<B>> = {
      params: internal.params as z.output<P>,
      query: internal.query as z.output<Q>,
      body: internal.body as z.output<B>,
      headers: event.headers ?? {},
      trace: internal.trace,
      caller: internal.caller as Caller,
      event,
    };
    const reply = spec.idempotent ? await spec.idempotent(req, internal.rawBody, () => fn(req)) : await fn(req);
    // Embedded ids of users on either side of a block with the caller never leave (contract section 6).
    if (scrubs(event)) scrubHidden(reply.body, await req.caller.hidden(), new Set((await req.caller.blockLists()).gone));
    return toResponse(reply);
  };

  const auth = authentication(needsAuth, scrubs);
  const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, Context>(core)
    .use(headerNames())
    .use(traceContext())
    .use(requestLog())
    .use(spec.scope ? [auth, spec.scope] : [])
    .use(spec.catchAll ? [] : [bodyParser(), validation(spec)])
    .use(spec.scope ? [] : auth)
    .use(errorEnvelope());
  // Each invocation logs under its own trace id, even when invocations interleave (lib/log.ts).
  const scoped = (event: APIGatewayProxyEventV2, context: Context) => withLogScope(() => handler(event, context));
  // The schemas travel with the handler, so the OpenAPI document is made from them.
  return Object.assign(scoped, { spec });
}
