// The DynamoDB requests a call sends, as the benchmark's recorder (scripts/bench/measure.mjs)
// saw them. A test file using it calls installDbMetrics() before it loads any module that
// creates the client (its first lines), and reads the records here.
import * as keys from '../../lib/keys';

const SINK = Symbol.for('aperture.dbMetrics');

export type Rec = { command: string; input: { IndexName?: string; ExpressionAttributeValues?: Record<string, { S?: string }> } };

/** The DynamoDB requests `run` sends. */
export async function recorded(run: () => Promise<unknown>): Promise<Rec[]> {
  (globalThis as Record<symbol, unknown>)[SINK] = [];
  await run();
  return (globalThis as Record<symbol, Rec[]>)[SINK] ?? [];
}

/** How many of the requests are of one command (e.g. 'QueryCommand', 'PutItemCommand'). */
export const countOf = (recs: Rec[], command: string) => recs.filter((r) => r.command === command).length;

/** Queries of a post's likes index (what the recent likers item beside the post spares a page). */
export const likersQueries = (recs: Rec[], postId: string) => recs.filter((r) => r.command === 'QueryCommand'
  && Object.values(r.input.ExpressionAttributeValues ?? {}).some((v) => v.S === keys.likesOf(postId)));
