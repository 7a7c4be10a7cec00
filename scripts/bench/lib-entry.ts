// What the benchmark's loader and scenarios take from lib/: the key builders, the item
// builders the writes use (so the loaded data has exactly the shapes of real writes), the
// log record shape, password hashing, sessions and tokens, the stream's reactions the benchmark runs
// before the cold starts (it has no stream: scripts/bench/settle.mjs), and the suspension the
// unsuspend scenario lifts. scripts/bench.mjs bundles this file with
// esbuild; the harness test imports it directly.
export * as keys from '../../lib/keys';
export { shardOf, FEED_SHARDS, POPULAR_SHARDS } from '../../lib/keys';
export { searchTerms } from '../../lib/users/search-terms';
export { newUserItem, claimItem, searchItem } from '../../lib/users/write';
export { RECENT_IDS } from '../../lib/users/model';
export { followEdge, blockEdge, blockMirror } from '../../lib/graph/edges';
export { postItem } from '../../lib/posts/write';
export { tagEntryItem } from '../../lib/tags/entries';
export { unfollowJob } from '../../lib/feed/fanout';
export { homeEntry } from '../../lib/posts/home-entry';
export { batchGet, itemKey } from '../../lib/db/batch';
export { newId } from '../../lib/ids';
export { notificationItem } from '../../lib/notifications/store';
export { postLikeItem, bookmarkItem } from '../../lib/posts/edges';
export { commentItem } from '../../lib/comments/create';
export { commentLikeItem } from '../../lib/comments/like';
export { logItem } from '../../lib/audit/records';
export { hashPassword } from '../../lib/users/password';
export { signToken } from '../../lib/auth/tokens';
export { newSession, issue } from '../../lib/auth/sessions';
export { refreshRecent } from '../../lib/graph/recent';
export { refreshLikers, refreshCommentLikers, likersItem, postTarget, commentTarget } from '../../lib/posts/recent-likers';
export { goneItem } from '../../lib/users/gone';
export { suspendAccount } from '../../lib/account/suspend';
export { codeAt, stepAt, newSecret } from '../../lib/auth/totp';
export { recoveryHash, newRecoveryCodes } from '../../lib/auth/two-factor';
export { issueChallenge } from '../../lib/auth/login-challenge';
