// Bearer authentication: the token is verified before the handler runs and the caller's
// user item and session item, which say whether the token's session is still live, are fetched in the
// background (lib/auth/sessions.ts sessionUser), so a handler's own first reads overlap with it. Every
// authenticated answer waits for it (a token of a deleted user or of an ended session gets a
// 401), and a handler that writes awaits caller.user() before writing.
import { bearerToken, verifyToken } from '../auth/tokens';
import { sessionUser } from '../auth/sessions';
import { blockListsOf, hiddenIds, type BlockLists } from '../graph/hidden';
import type { UserItem } from '../users/model';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Caller } from './request';
import { state, type Middleware } from './state';

export async function authenticate(authorization: string | undefined): Promise<Caller> {
  const claims = await verifyToken(bearerToken(authorization));
  let pending: Promise<UserItem> | undefined;
  let lists: Promise<BlockLists> | undefined;
  let hidden: Promise<Set<string>> | undefined;
  const blockLists = () => (lists ??= blockListsOf(claims.userId));
  return {
    userId: claims.userId,
    sessionId: claims.sessionId,
    scopes: claims.scopes,
    user: () => (pending ??= sessionUser(claims)),
    blockLists,
    hidden: () => (hidden ??= blockLists().then(hiddenIds)),
    settled: async () => {
      await Promise.allSettled([pending, lists, hidden]);
    },
  };
}

/** `readsHidden`: whether this request's answer will be scrubbed of hidden ids (lib/http/index.ts). */
export function authentication(required: boolean, readsHidden: (event: APIGatewayProxyEventV2) => boolean): Middleware {
  return {
    before: async (request) => {
      if (!required) return;
      const caller = await authenticate(request.event.headers?.authorization);
      // Start the lookup now; whoever needs it first awaits the same promise.
      caller.user().catch(() => undefined);
      // The block lists are read beside everything else, never after.
      if (readsHidden(request.event)) caller.hidden().catch(() => undefined);
      state(request).caller = caller;
    },
    after: async (request) => {
      const caller = state(request).caller;
      await caller?.settled();
      await caller?.user();
    },
  };
}
