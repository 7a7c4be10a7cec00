// One log line per request where X-Ray is on (a deployed stage: Lambda sets _X_AMZN_TRACE_ID
// per invocation), so every request, also one that logs nothing else, joins our trace id
// (X-Trace-Id) to its X-Ray trace (`xrayTraceId`, lib/log.ts) and to its access log line (the
// API's `requestId`; docs/OPERATIONS.md, "Tracing"). Locally and in the tests there is no
// X-Ray to join to, and no line. Runs inside the trace context, so the line has its trace id.
import { logger } from '../log';
import type { Middleware, MiddyRequest } from './state';

const line = (request: MiddyRequest) => {
  if (!process.env._X_AMZN_TRACE_ID) return;
  logger.info('request', {
    route: request.event.routeKey,
    status: request.response?.statusCode,
    apiRequestId: request.event.requestContext?.requestId,
    lambdaRequestId: request.context?.awsRequestId,
  });
};

export const requestLog = (): Middleware => ({ after: line, onError: line });
