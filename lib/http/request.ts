// What a handler receives: validated input, the trace context, and the caller.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { TraceContext } from './trace';
import type { UserItem } from '../users/model';
import type { BlockLists } from '../graph/hidden';

export interface Caller {
  userId: string;
  /** The session of the token (its `sid`). */
  sessionId: string;
  scopes: Set<string>;
  /** The caller's user item; a 401 when the account no longer exists or the session has ended. Fetched once, lazily. */
  user(): Promise<UserItem>;
  /** The caller's two block lists (lib/graph/hidden.ts). Fetched once, lazily. */
  blockLists(): Promise<BlockLists>;
  /** Ids of the users on either side of a block with the caller. */
  hidden(): Promise<Set<string>>;
}

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
