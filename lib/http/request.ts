// What a handler receives: validated input, the trace context, and the caller.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { TraceContext } from './trace';
import type { Caller } from '../auth/caller';

export type { Caller } from '../auth/caller';

export interface ApiRequest<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  headers: Record<string, string | undefined>;
  trace: TraceContext;
  /** The authenticated caller; only on routes with auth. */
  caller: Caller;
  event: APIGatewayProxyEventV2;
}

export interface ApiReply {
  body: Record<string, unknown>;
  status?: number;
  headers?: Record<string, string>;
  /** Send the body as it is, without `success` (a document that is not an API answer: /openapi.json). */
  raw?: boolean;
}
