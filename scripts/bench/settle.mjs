// What the stream would have done by now. The benchmark runs no stream consumer, so the
// follow, unfollow and block scenarios leave the users they touched with recent ids behind
// their edges (recentV < edgesV), and the like and unlike scenarios leave the posts they
// touched with recent likers behind their likes (the item's v < the post's likesV). Every
// list then presents those users the slow way, with 2 edge Queries each, and every page of
// posts reads those posts' likes index: the state of the seconds after such a change, not of
// a stage whose stream keeps up (docs/ARCHITECTURE.md, "Recent ids on the user item" and
// "Recent likers beside the post"). Before the cold starts, the stream's own reactions
// (lib/graph/recent.ts refreshRecent, lib/posts/recent-likers.ts refreshLikers, through the
// lib bundle) bring every user and post of the data set up to date. For one already current
// it is one read and no write.

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
