// What the stream would have done by now. The benchmark runs no stream consumer, so:
// - the follow, unfollow and block scenarios leave the users they touched with recent ids
//   behind their edges (recentV < edgesV): every list presents those users the slow way, with
//   2 edge Queries each;
// - the like and unlike scenarios leave the posts they touched with recent likers behind their
//   likes (the item's v < the post's likesV): every page of posts reads their likes index;
// - the unfollow and block scenarios leave the unfollowed authors' posts in their readers' home
//   feeds: every page of such a feed leaves them out as it reads them, and reads the feed again
//   to fill the page (two more round trips).
// That is the state of the seconds after such a change, not of a stage whose stream keeps up
// (docs/ARCHITECTURE.md, "Recent ids on the user item", "Recent likers beside the post", "Home
// feed"). Before the cold starts, the stream's own code (lib/graph/recent.ts refreshRecent,
// lib/posts/recent-likers.ts refreshLikers, lib/feed/fanout.ts unfollowJob, through the lib
// bundle) brings every user, post and feed of the data set up to date. For one already
// current it is one read and no write.
//
// Not run: a new post's fan-out into its author's followers' feeds, a follow's backfill of
// the author's posts into the reader's feed, a deleted post's removal from its followers'
// feeds, and an account deletion's cleanup (its edges, likes and content; readers leave the
// account out by the GONE list meanwhile). Leaving them undone can make a read here costlier
// than on a stage, never cheaper; the cold starts' request counts (JSON
// `bundles.<fn>.requests`) show whether it did: in the runs of 2026-11-26, every read's cold
// request sent what its warm row sends, or less.

/** Runs `refresh` for every one of `items`, 16 at a time; answers how many it moved. */
async function settleAll(items, refresh) {
  let moved = 0;
  for (let i = 0; i < items.length; i += 16) {
    const done = await Promise.all(items.slice(i, i + 16).map(refresh));
    moved += done.filter(Boolean).length;
  }
  return moved;
}

/** refreshRecent for every user of the data set. */
export const settleRecentIds = (ds, lib) => settleAll(ds.users, (u) => lib.refreshRecent(u.id));

/** refreshLikers for every post of the data set, and for every comment (a comment's likes have the same item). */
export const settleRecentLikers = async (ds, lib) => (await settleAll(ds.posts, (p) => lib.refreshLikers(p.id)))
  + (await settleAll(ds.comments, (c) => lib.refreshCommentLikers(c.id)));

/**
 * The unfollow job (lib/feed/fanout.ts unfollowJob, run to its end as the stream runs it) for
 * every follow of the data set that is gone (unfollowed, or taken by a block), or only for
 * those of `onlyUsers` (a Set of ids, either end); answers how many. A replay finds the same
 * follows gone and removes nothing more.
 */
export async function settleFeeds(ds, lib, onlyUsers) {
  const pairs = ds.users.flatMap((u) => ds.followingOf(u.i).map((a) => ({ reader: u, author: ds.users[a] })))
    .filter(({ reader, author }) => !onlyUsers || onlyUsers.has(reader.id) || onlyUsers.has(author.id));
  const edge = ({ reader, author }) => lib.keys.follow(reader.id, author.id);
  const gone = [];
  for (let i = 0; i < pairs.length; i += 100) {
    const chunk = pairs.slice(i, i + 100);
    const found = await lib.batchGet(chunk.map(edge), { projection: 'followeeId' });
    gone.push(...chunk.filter((p) => !found.has(lib.itemKey(edge(p)))));
  }
  await settleAll(gone, async ({ reader, author }) => {
    const params = { readerId: reader.id, authorId: author.id, since: ds.edgeTime(reader.i, author.i) };
    let cursor;
    do cursor = await lib.unfollowJob.step(params, cursor); while (cursor !== undefined);
    return true;
  });
  return gone.length;
}

/**
 * What the stream does after one cold request that wrote, before the next cold request (the
 * cold starts run every function's requests in turn, so a follow's or a like's cold request
 * would otherwise leave the users and posts it touched behind for every later read, seconds
 * after the change where a stage's stream takes about one): the reactions above for the users
 * the request names (its caller, and a path parameter naming a user of the data set by id or
 * username) and for the posts and comments it names (any other path parameter; a refresh of an
 * id that is no post or comment reads two BatchGets, one as a post and one as a comment, and
 * writes nothing). Answers what moved.
 */
export async function settleAfterWrite(event, ds, lib) {
  const token = String(event.headers?.authorization ?? '').replace(/^Bearer /, '');
  const caller = token ? JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8') || '{}').sub : undefined;
  const users = new Set(caller ? [caller] : []);
  const others = [];
  for (const value of Object.values(event.pathParameters ?? {})) {
    const user = ds.users.find((u) => u.id === value || u.username === value);
    if (user) users.add(user.id);
    else others.push(String(value));
  }
  const [recent, likers, unfollowed] = await Promise.all([
    settleAll([...users], (id) => lib.refreshRecent(id)),
    settleAll(others, async (id) => (await lib.refreshLikers(id)) || lib.refreshCommentLikers(id)),
    users.size ? settleFeeds(ds, lib, users) : 0,
  ]);
  return { recent, likers, unfollowed };
}
