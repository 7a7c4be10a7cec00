// The last word on every failure: the contract's envelope, nothing internal leaked, and
// the trace log record of a refused or failed authenticated request (WARN for a 4xx,
// ERROR for a 5xx).
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { ApiError, InternalError, InvalidJson, Unauthorized, UnsupportedMediaType, ValidationError } from '../errors';
import { logger } from '../log';
import { ANONYMOUS, writeLog } from '../audit/records';
import { cutBody } from '../audit/redact';
import { authenticate } from './auth';
import { state, type Middleware, type MiddyRequest } from './state';
import { toResponse } from './response';

/** middy's own HttpErrors (JSON parser) and anything else, as one of ours. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as { statusCode?: number; message?: string; cause?: { data?: unknown } };
  if (e?.statusCode === 415) return new UnsupportedMediaType();
  if (e?.statusCode === 422 && e.message === 'Forbidden key in JSON body') {
    return ValidationError.field(String(e.cause?.data ?? 'body'), 'is a forbidden key');
  }
  if (e?.statusCode === 422) return new InvalidJson();
  return new InternalError();
}

function envelope(err: ApiError): APIGatewayProxyStructuredResultV2 {
  return toResponse({
    status: err.status,
    headers: err.headers,
    raw: true,
    body: { success: false, message: err.message, code: err.code, ...(err.details ? { details: err.details } : {}) },
  });
}

/** Who made the request, when the token is valid, even if the request failed before auth ran. */
async function actorOf(request: MiddyRequest): Promise<string | undefined> {
  const known = state(request).caller;
  if (known) return known.userId;
  try {
    return (await authenticate(request.event.headers?.authorization)).userId;
  } catch {
    return undefined;
  }
}

async function recordFailure(request: MiddyRequest, err: ApiError): Promise<void> {
  // An Unauthorized is a request that is not authenticated (no token, a bad one, an ended
  // session): no record. A wrong password (401 INVALID_CREDENTIALS) on a route whose token is
  // good (a password change, an account's deletion) is an authenticated request refused; at
  // a login, with no token, actorOf finds nobody and nothing is recorded, as for any refusal.
  if (err instanceof Unauthorized) return;
  const actorId = await actorOf(request);
  if (!actorId && err.status < 500) return;
  const s = state(request);
  const route = request.event.routeKey ?? `${request.event.requestContext?.http?.method} ${request.event.rawPath}`;
  await writeLog(s.trace, {
    level: err.status >= 500 ? 'ERROR' : 'WARN',
    type: err.status >= 500 ? 'REQUEST_FAILED' : 'REQUEST_REFUSED',
    description: `${route} was answered ${err.status} ${err.code}: ${err.message}`,
    actorId: actorId ?? ANONYMOUS,
    payload: {
      route,
      params: request.event.pathParameters ?? {},
      // Anyone may send a refused request under any trace id: its record keeps at most 4 KiB of its body.
      ...(s.rawBody !== undefined ? cutBody(s.rawBody) : {}),
      error: { status: err.status, code: err.code },
    },
  });
}

/**
 * The token of an account that no longer exists is answered 401 whatever else went wrong:
 * a handler's 404 or 403 about its target must not be the answer to a deleted user.
 */
async function accountFirst(request: MiddyRequest): Promise<unknown> {
  const caller = state(request).caller;
  if (!caller) return request.error;
  // The reads authentication started beside the handler end before the answer (lib/auth/caller.ts settled).
  await caller.settled();
  if (request.error instanceof Unauthorized) return request.error;
  try {
    await caller.user();
  } catch (err) {
    if (err instanceof Unauthorized) return err;
  }
  return request.error;
}

export function errorEnvelope(): Middleware {
  return {
    onError: async (request) => {
      // A failure is logged even when the answer becomes a deleted account's 401.
      if (toApiError(request.error).status >= 500) {
        const e = request.error as Error | undefined;
        logger.error('request_failed', { route: request.event.routeKey, error: e?.name, message: e?.message, stack: e?.stack });
      }
      const err = toApiError(await accountFirst(request));
      try {
        await recordFailure(request, err);
      } catch (logErr) {
        logger.error('trace_record_failed', { message: (logErr as Error).message });
      }
      request.response = envelope(err);
    },
  };
}
