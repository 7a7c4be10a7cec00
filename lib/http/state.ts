// State the middlewares and the core handler share within one invocation. It lives on
// the Lambda context object, which middy hands to the core handler unchanged.
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { readTrace, type TraceContext } from './trace';
import type { Caller } from './request';

export interface Internal {
  trace: TraceContext;
  traceProblems: { path: string; message: string }[];
  params?: unknown;
  query?: unknown;
  body?: unknown;
  caller?: Caller;
  /** The parsed body as sent, for the payload of a WARN record. */
  rawBody?: unknown;
}

export type MiddyRequest = middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, Context>;
export type Middleware = middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, Context>;

const STATE = Symbol('aperture');
type WithState = Context & { [STATE]?: Internal };

/** The invocation's shared state; it lives on the Lambda context, which middy hands to the core handler. */
export function state(request: { context: Context }): Internal {
  const ctx = request.context as WithState;
  return (ctx[STATE] ??= { trace: readTrace({}).trace, traceProblems: [] });
}

