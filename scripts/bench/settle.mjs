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

/** Runs refreshRecent for every user of the data set, 16 at a time; answers how many moved. */
export async function settleRecentIds(ds, lib) {
  let moved = 0;
  for (let i = 0; i < ds.users.length; i += 16) {
    const done = await Promise.all(ds.users.slice(i, i + 16).map((u) => lib.refreshRecent(u.id)));
    moved += done.filter(Boolean).length;
  }
  return moved;
}

/** Runs refreshLikers for every post of the data set, 16 at a time; answers how many moved. */
export async function settleRecentLikers(ds, lib) {
  let moved = 0;
  for (let i = 0; i < ds.posts.length; i += 16) {
    const done = await Promise.all(ds.posts.slice(i, i + 16).map((p) => lib.refreshLikers(p.id)));
    moved += done.filter(Boolean).length;
  }
  return moved;
}
