// Who reads a list of users, as the graph's reads need them: the caller (lib/auth/caller.ts
// builds one per request, and its Caller has this shape) or anything else with these reads.
// Defined here, not imported from lib/auth, so the graph stays below authentication: auth
// reads the graph's block lists (lib/graph/hidden.ts), never the other way round.
import type { UserItem } from '../users/model';
import type { BlockLists } from './hidden';

export interface Viewer {
  userId: string;
  /** The viewer's user item. */
  user(): Promise<UserItem>;
  /** The viewer's two block lists. */
  blockLists(): Promise<BlockLists>;
  /** Ids of the users on either side of a block with the viewer (and of hidden accounts). */
  hidden(): Promise<Set<string>>;
}
