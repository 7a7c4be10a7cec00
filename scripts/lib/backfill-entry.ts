// What `npm run migrate` takes from lib/ to bring the recent ids and the recent likers items of
// a table up to date (scripts/lib/recent-backfill.mjs): the stream's own refreshes, bundled by
// scripts/migrate.mjs with esbuild, so the upgrade writes exactly what the stream writes.
export { refreshRecent, IndexBehind } from '../../lib/graph/recent';
export { refreshLikers, refreshCommentLikers, LikesMoving } from '../../lib/posts/recent-likers';
