// The one-off upgrade of a table written before the recent ids on the user item (2026-11-24)
// and the recent likers items beside posts and comments (2026-11-26): the stream keeps both
// from each follow change and each like on, but an item written before has none. Readers
// then read the edges the slow way: a list presents such a user with 2 edge Queries, a page of
// posts or comments reads such a liked post's likes index, until the user's next follow
// change or the post's next like, which may never come (docs/ARCHITECTURE.md, "Recent ids on
// the user item", "Recent likers beside the post").
//
// It reads the table's users, posts and comments with a parallel Scan filtered on their types
// (a one-off upgrade, never a request path) and runs the stream's own refresh for each user
// whose recent ids are behind its edges and each post or comment with likes. Each refresh
// reads what it needs consistently and writes only when the item is behind, under the same
// conditions as the stream, so a second run, or a run beside live traffic and the stream,
// writes nothing twice and never puts an older view back. A refresh the index is not ready
// for (IndexBehind: AWS's GSI propagation, right after a change), or whose post's likes move
// under every read (LikesMoving: a busy post), is tried again a few times, then left: counted
// in `behind` and named in `left`. The stream's own runs for those changes bring them up to
// date; a run of the upgrade later shows whether any is still behind. Any other error (access
// refused, a table that is not there) stops the upgrade: it is safe to run again.
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { scanTypes } from './scan-types.mjs';

/** Tries of one refresh that meets an index not ready yet or a post whose likes keep moving, 100 ms apart, doubling. */
const TRIES = 5;
/** Keys named in `left` at most (the count is in `behind`). */
const LEFT_NAMED = 50;

/**
 * `client`: a DynamoDBClient for the Scan; `lib`: the refreshes and their two errors
 * (scripts/lib/backfill-entry.ts, bundled against the same table). Answers `{ users,
 * usersMoved, liked, likersMoved, behind, left }`: users whose recent ids were behind and how
 * many of them it wrote, posts and comments with likes and how many items it wrote, and the
 * refreshes it left to the stream (`left`: the first LEFT_NAMED of them, as `USER#<id>`,
 * `POST#<id>` or `COMMENT#<id>`).
 */
export async function migrateRecent({ client, table, lib, segments = 4, parallel = 8, log = () => {} }) {
  const db = DynamoDBDocumentClient.from(client);
  const counts = { users: 0, usersMoved: 0, liked: 0, likersMoved: 0, behind: 0 };
  const left = [];
  const attempt = async (key, refresh) => {
    for (let tries = 1; ; tries++) {
      try {
        return await refresh();
      } catch (err) {
        if (!(err instanceof lib.IndexBehind || err instanceof lib.LikesMoving)) throw err;
        if (tries >= TRIES) {
          counts.behind++;
          if (left.length < LEFT_NAMED) left.push(key);
          return false;
        }
        await new Promise((r) => setTimeout(r, 100 * 2 ** (tries - 1)));
      }
    }
  };
  const work = (item) => {
    if (item.type === 'USER') {
      // Current, or an account being deleted: nothing to do (refreshRecent would say the same after a read).
      if (item.deletedAt !== undefined || (item.recentV !== undefined && Number(item.recentV) >= Number(item.edgesV ?? 0))) return undefined;
      counts.users++;
      return async () => { if (await attempt(`USER#${item.id}`, () => lib.refreshRecent(String(item.id)))) counts.usersMoved++; };
    }
    if (!(Number(item.likesCount ?? 0) > 0)) return undefined;
    counts.liked++;
    const refresh = item.type === 'POST' ? lib.refreshLikers : lib.refreshCommentLikers;
    return async () => { if (await attempt(`${item.type}#${item.id}`, () => refresh(String(item.id)))) counts.likersMoved++; };
  };
  await scanTypes({ db, table, types: ['USER', 'POST', 'COMMENT'], projection: ['id', 'recentV', 'edgesV', 'deletedAt', 'likesCount'], segments, onPage: async (items, segment) => {
    const jobs = items.map(work).filter(Boolean);
    for (let i = 0; i < jobs.length; i += parallel) await Promise.all(jobs.slice(i, i + parallel).map((job) => job()));
    log(`segment ${segment}: ${counts.users} users behind (${counts.usersMoved} written), ${counts.liked} liked posts and comments (${counts.likersMoved} written)`);
  } });
  return { ...counts, left };
}
