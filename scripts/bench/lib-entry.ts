// What the benchmark's loader and scenarios take from lib/: the key builders, the search
// terms, the log record shape, password hashing and tokens. scripts/bench.mjs bundles this
// file with esbuild; the harness test imports it directly.
export { keys, shardOf, FEED_SHARDS, POPULAR_SHARDS } from '../../lib/keys';
export { searchTerms } from '../../lib/users/search-terms';
export { logItem } from '../../lib/audit/records';
export { hashPassword } from '../../lib/auth/password';
export { signToken } from '../../lib/auth/tokens';
