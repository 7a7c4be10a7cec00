// What the stream would have done by now. The benchmark runs no stream consumer, so the
// follow, unfollow and block scenarios leave the users they touched with recent ids behind
// their edges (recentV < edgesV). Every list then presents those users the slow way, with 2
// edge Queries each: the state of the seconds after a follow change, not of a stage whose
// stream keeps up (docs/ARCHITECTURE.md, "Recent ids on the user item"). Before the cold
// starts, the stream's own reaction (lib/graph/recent.ts refreshRecent, through the lib
// bundle) brings every user of the data set up to date. For a user already current it is
// one GetItem and no write.

/** Runs refreshRecent for every user of the data set, 16 at a time; answers how many moved. */
export async function settleRecentIds(ds, lib) {
  let moved = 0;
  for (let i = 0; i < ds.users.length; i += 16) {
    const done = await Promise.all(ds.users.slice(i, i + 16).map((u) => lib.refreshRecent(u.id)));
    moved += done.filter(Boolean).length;
  }
  return moved;
}
