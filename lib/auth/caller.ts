// The authenticated caller as the domain sees it: lib/http builds it from a bearer token,
// and domain code (user lists, feeds) takes it without knowing about HTTP.
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
  /**
   * Waits for the reads above that were started (never throws). The answer waits for it: no
   * read of an invocation is left running after its answer, where Lambda would freeze it and
   * finish it, and log it, inside the next invocation (lib/log.ts).
   */
  settled(): Promise<void>;
}
