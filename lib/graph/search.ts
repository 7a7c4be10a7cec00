// User search over the prefix index (items keys.search(kind, term, userId), written by
// registration and profile edits). The query is folded like the indexed terms and split
// into words like a name:
//   - one word: usernames starting with it (U partition) and names with a word starting
//     with it (N partition), two Queries in parallel;
//   - several words: names having, for every query word, a word starting with it (one N
//     Query per word, at most MAX_WORDS, intersected). A username has no spaces, so a
//     multi-word query matches names only.
// Ranking: exact username, then username prefixes, then name matches; within a group in
// index order (lexical by term). Each Query reads at most READ_PER_TERM index items, so
// the work per call is bounded. The query text is only ever a key value: no injection.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import * as keys from '../keys';
import { nameWords } from '../users/search-terms';
import type { BaseUser } from '../users/model';
import type { Viewer } from './viewer';
import { presentIds } from './present';

export const SEARCH_BOUNDS = {
  /** Index items read per term Query (one page, no follow-up pages). */
  readPerTerm: 100,
  /** Words of a multi-word query that are looked up; further words are ignored. */
  maxWords: 4,
} as const;

interface Hit {
  term: string;
  userId: string;
}

async function prefix(kind: 'U' | 'N', word: string): Promise<Hit[]> {
  const res = await db.send(new QueryCommand({
    TableName: TABLE,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :q)',
    ExpressionAttributeValues: { ':pk': keys.searchPartition(kind, word), ':q': word },
    ProjectionExpression: 'term, userId',
    // A base-table read: it must find a user registered or renamed a moment ago (contract
    // section 1: only reads of a secondary index may trail a write).
    ConsistentRead: true,
    Limit: SEARCH_BOUNDS.readPerTerm,
  }));
  return (res.Items ?? []).map((i) => ({ term: String(i.term), userId: String(i.userId) }));
}

/** Matching user ids, best first, each once. */
async function matches(query: string): Promise<string[]> {
  const words = nameWords(query).slice(0, SEARCH_BOUNDS.maxWords);
  if (words.length === 0) return [];
  const single = words.length === 1;
  const [usernames, ...names] = await Promise.all([
    single ? prefix('U', words[0]!) : Promise.resolve([]),
    ...words.map((w) => prefix('N', w)),
  ]);
  const exact = usernames!.filter((h) => h.term === words[0]).map((h) => h.userId);
  const byUsername = usernames!.map((h) => h.userId);
  const sets = names.map((hits) => new Set(hits.map((h) => h.userId)));
  const byName = names[0]!.map((h) => h.userId).filter((id) => sets.every((s) => s.has(id)));
  return [...new Set([...exact, ...byUsername, ...byName])];
}

/**
 * Round trips: the term Queries (beside the caller's block lists); then one BatchGet of the
 * first `limit` visible matches' user items, which carry their newest follower and following
 * ids (lib/graph/recent.ts); a third only for users whose ids are behind their edges, and the
 * caller's own object (lib/graph/present.ts).
 */
export async function searchUsers(caller: Viewer, query: string, limit: number): Promise<BaseUser[]> {
  const [matched, me, hidden] = await Promise.all([matches(query), caller.user(), caller.hidden()]);
  // Users on either side of a block with the caller (and hidden accounts) are left out before
  // anything is read of them: the caller's block lists were read by authentication.
  const chosen = matched.filter((id) => !hidden.has(id)).slice(0, limit);
  const { users } = await presentIds(chosen, caller.userId, { known: new Map([[me.id, me]]), hidden: caller.hidden() });
  return chosen.flatMap((id) => (users.has(id) ? [users.get(id)!] : []));
}
