// Every key of the single table is built here, so that the access patterns in
// docs/ARCHITECTURE.md have exactly one implementation. Ids are ULIDs (upper case);
// usernames and e-mails are stored lower case; time-ordered sort keys start with an
// ISO timestamp so that lexical order is time order.
//
// Import the key builders as a namespace, `import * as keys from './keys'`, and call them as
// `keys.user(id)`: esbuild then bundles only the builders a function calls. They were one
// `keys` object, which every function carried whole (3.2 KB minified, about 0.9% of the
// reference bundle; tests/unit/bundle-imports.test.ts keeps it that way).

export const INDEX = { GSI1: 'GSI1', GSI2: 'GSI2', POPULAR: 'GSI3' } as const;

/** Shards of the global explore index and of the global post counter. */
export const FEED_SHARDS = 8;
/** Shards of the "most followed" index (GSI3) used by suggestions without graph signal. */
export const POPULAR_SHARDS = 4;

/** Sort-key prefix of the pull sources in a reader's user partition. */
export const PULL_PREFIX = 'PULL#';

/** A stable small hash of an id, for spreading writes over shards. */
export function shardOf(id: string, shards: number): number {
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (h * 31 + id.charCodeAt(i)) >>> 0;
  return h % shards;
}

/** Sort key prefix of session items (keys.session). */
export const SESSION_PREFIX = 'SESSION#';

// Users and their unique claims.
export const user = (userId: string) => ({ PK: `USER#${userId}`, SK: 'PROFILE' });
export const username = (username: string) => ({ PK: `USERNAME#${username.toLowerCase()}`, SK: 'CLAIM' });
export const email = (email: string) => ({ PK: `EMAIL#${email.toLowerCase()}`, SK: 'CLAIM' });
// The login lock's guard of a subject (lib/auth/login-guard.ts), in the account's partition
// (`USER#<id>`), or, for an identifier no account holds, in a partition of that identifier's claim.
export const loginGuard = (partition: string) => ({ PK: partition, SK: 'LOGIN_GUARD' });
export const unknownLoginGuard = (claim: { PK: string }) => `LOGIN#${claim.PK}`;
// Two-factor sign-in of an account (lib/auth/two-factor.ts): its pending or active TOTP secret,
// the last step accepted and the hashes of its unused recovery codes, in the account's partition.
export const twoFactor = (userId: string) => ({ PK: `USER#${userId}`, SK: 'TWO_FACTOR' });
// A login's two-factor challenge (lib/auth/login-challenge.ts), by the hash of its value, with a TTL,
// in the account's partition (the challenge names the account, as a refresh token does).
export const loginChallenge = (userId: string, hash: string) => ({ PK: `USER#${userId}`, SK: `CHALLENGE#${hash}` });
// The uploads a user issued within the last hour (lib/media/upload-rate.ts), kept with a TTL.
export const uploadRate = (userId: string) => ({ PK: `USER#${userId}`, SK: 'UPLOAD_RATE' });
// The caller's suggested users as last computed (lib/graph/suggest.ts), kept with a TTL.
export const suggestions = (userId: string) => ({ PK: `USER#${userId}`, SK: 'SUGGESTIONS' });
// Sessions live in their user's partition: a user's sessions, newest first, are one Query
// (`begins_with(SK, SESSION#)`, descending: session ids are ULIDs); the caller's user item
// and session item are read together on every authenticated request.
export const session = (userId: string, sessionId: string) => ({ PK: `USER#${userId}`, SK: `${SESSION_PREFIX}${sessionId}` });
export const popular = (userId: string) => ({ GSI3PK: popularShard(shardOf(userId, POPULAR_SHARDS)) });
export const popularShard = (shard: number) => `POPULAR#${shard}`;
// The most-followed accounts merged from the shards, shared by every ranking (lib/graph/popular.ts).
export const popularTop = () => ({ PK: 'POPULAR', SK: 'TOP' });

// Search prefix index: one item per (term, user). kind U = username, N = a word of the name.
export const searchPartition = (kind: 'U' | 'N', term: string) => `SEARCH#${kind}#${[...term][0] ?? ''}`;
export const search = (kind: 'U' | 'N', term: string, userId: string) => ({
  PK: searchPartition(kind, term),
  SK: `${term}#${userId}`,
});

// Follow edge: A follows B. Base item answers "does A follow B"; GSI1 lists A's
// following newest first, GSI2 lists B's followers newest first.
export const follow = (followerId: string, followeeId: string) => ({ PK: `USER#${followerId}`, SK: `FOLLOWS#${followeeId}` });
export const followIndexes = (followerId: string, followeeId: string, createdAt: string) => ({
  GSI1PK: followingOf(followerId),
  GSI1SK: `${createdAt}#${followeeId}`,
  GSI2PK: followersOf(followeeId),
  GSI2SK: `${createdAt}#${followerId}`,
});
export const followingOf = (userId: string) => `FOLLOWING#${userId}`;
export const followersOf = (userId: string) => `FOLLOWERS#${userId}`;

// Block edge: A blocked B. GSI1 lists A's blocks, GSI2 who blocked B.
export const block = (blockerId: string, blockedId: string) => ({ PK: `USER#${blockerId}`, SK: `BLOCKS#${blockedId}` });
export const blockIndexes = (blockerId: string, blockedId: string, createdAt: string) => ({
  GSI1PK: blocksOf(blockerId),
  GSI1SK: `${createdAt}#${blockedId}`,
  GSI2PK: blockedByOf(blockedId),
  GSI2SK: `${createdAt}#${blockerId}`,
});
// Its mirror in the blocked user's partition (written and deleted in the same transaction as
// the edge): both directions of a user's blocks are then one consistent Query of the user's
// own partition, `begins_with(SK, BLOCK_PREFIX)` (lib/graph/hidden.ts), instead of two index
// Queries on every authenticated read.
export const blockedBy = (blockedId: string, blockerId: string) => ({ PK: `USER#${blockedId}`, SK: `BLOCKEDBY#${blockerId}` });
/** The sort-key prefix shared by a user's blocks (BLOCKS#) and their mirrors (BLOCKEDBY#), and by nothing else. */
export const BLOCK_PREFIX = 'BLOCK';
export const blocksOf = (userId: string) => `BLOCKS#${userId}`;
export const blockedByOf = (userId: string) => `BLOCKEDBY#${userId}`;

// Follow request (contract section 18): A asked to follow the private account B. In A's
// partition like the follow edge ("has A a request pending with B" by key; A's deletion sweeps
// its partition); GSI1 lists B's pending requests newest first, GSI2 A's own (a block, a deletion).
export const followRequest = (requesterId: string, ownerId: string) => ({ PK: `USER#${requesterId}`, SK: `REQUESTS#${ownerId}` });
export const followRequestIndexes = (requesterId: string, ownerId: string, createdAt: string) => ({
  GSI1PK: requestsTo(ownerId),
  GSI1SK: `${createdAt}#${requesterId}`,
  GSI2PK: requestsBy(requesterId),
  GSI2SK: `${createdAt}#${ownerId}`,
});
export const requestsTo = (ownerId: string) => `REQUESTSTO#${ownerId}`;
export const requestsBy = (requesterId: string) => `REQUESTSBY#${requesterId}`;

// Mute edge: A muted B. Read by key for the few authors of a page (lib/graph/visibility.ts), so
// no page grows with how many accounts A muted; explore's total reads A's whole prefix
// (lib/posts/explore.ts); GSI1 lists A's mutes newest first, GSI2 who muted B (B's deletion).
export const mute = (muterId: string, mutedId: string) => ({ PK: `USER#${muterId}`, SK: `MUTES#${mutedId}` });
export const muteIndexes = (muterId: string, mutedId: string, createdAt: string) => ({
  GSI1PK: mutesOf(muterId),
  GSI1SK: `${createdAt}#${mutedId}`,
  GSI2PK: mutedByOf(mutedId),
  GSI2SK: `${createdAt}#${muterId}`,
});
export const mutesOf = (userId: string) => `MUTES#${userId}`;
export const mutedByOf = (userId: string) => `MUTEDBY#${userId}`;

// Bookmark edge: user U bookmarked post P. GSI1 lists U's bookmarks, GSI2 finds a
// post's bookmarks for the cleanup after the post is deleted.
export const bookmark = (userId: string, postId: string) => ({ PK: `USER#${userId}`, SK: `BOOKMARKS#${postId}` });
export const bookmarkIndexes = (userId: string, postId: string, createdAt: string) => ({
  GSI1PK: bookmarksOf(userId),
  GSI1SK: `${createdAt}#${postId}`,
  GSI2PK: bookmarkedByOf(postId),
  GSI2SK: `${createdAt}#${userId}`,
});
export const bookmarksOf = (userId: string) => `BOOKMARKS#${userId}`;
export const bookmarkedByOf = (postId: string) => `BOOKMARKEDBY#${postId}`;

// Posts. GSI1 = an author's posts newest first; GSI2 = the write-sharded global feed.
export const post = (postId: string) => ({ PK: `POST#${postId}`, SK: 'POST' });
export const postIndexes = (postId: string, authorId: string) => ({
  GSI1PK: postsOf(authorId),
  GSI1SK: postId,
  GSI2PK: feedShard(shardOf(postId, FEED_SHARDS)),
  GSI2SK: postId,
});
export const postsOf = (authorId: string) => `POSTS#${authorId}`;
export const feedShard = (shard: number) => `FEED#${shard}`;
export const postCounterShard = (shard: number) => ({ PK: 'STATS#POSTS', SK: `SHARD#${shard}` });
// The newest likers of a post or a comment, kept by the stream beside it
// (lib/posts/recent-likers.ts); not in any index. Its SK sorts apart from the LIKE# edges,
// which a cleanup pages out by prefix.
export const LIKERS_SK = '#LIKERS';
export const postLikers = (postId: string) => ({ PK: `POST#${postId}`, SK: LIKERS_SK });
export const commentLikers = (commentId: string) => ({ PK: `COMMENT#${commentId}`, SK: LIKERS_SK });

// Likes of a post or of a comment live in the liked record's partition (so a
// cleanup can page them out); GSI1 lists them newest first.
export const postLike = (postId: string, userId: string) => ({ PK: `POST#${postId}`, SK: `LIKE#${userId}` });
export const commentLike = (commentId: string, userId: string) => ({ PK: `COMMENT#${commentId}`, SK: `LIKE#${userId}` });
// GSI2 lists a user's likes (of posts and comments), for the deletion of the account.
export const likeIndexes = (targetId: string, userId: string, createdAt: string) => ({
  GSI1PK: likesOf(targetId),
  GSI1SK: `${createdAt}#${userId}`,
  GSI2PK: likesBy(userId),
  GSI2SK: `${createdAt}#${targetId}`,
});
export const likesOf = (targetId: string) => `LIKES#${targetId}`;
export const likesBy = (userId: string) => `LIKEDBY#${userId}`;

// Comments and replies. GSI1SK is the createdAt alone: the service keeps it unique
// within a thread, which makes it a cursor that can never skip or repeat.
export const comment = (commentId: string) => ({ PK: `COMMENT#${commentId}`, SK: 'COMMENT' });
export const commentsOf = (postId: string) => `COMMENTS#${postId}`;
export const repliesOf = (commentId: string) => `REPLIES#${commentId}`;
// GSI2 lists an author's comments and replies (GSI2SK: the comment id), for the deletion of the account.
export const commentsBy = (authorId: string) => `COMMENTSBY#${authorId}`;

// Trace logs: one partition per trace id, in it each actor's records together, by writing
// order (ULID). The actor leads the sort key so that a caller's read of its own records is a
// Query of its own range alone, costing the same however many records others wrote under the
// trace id (contract section 9). The contract's order (simTimestamp, then writing) is made by
// the reader (functions/logs/trace.ts), which reads every record it answers anyway: a key
// without simTimestamp spares every function sortableNumber (docs/OPERATIONS.md, "Bundle
// budget"). Records written before (`LOG#<sortableNumber(simTimestamp)>#<id>`, no actor) are
// moved by `npm run migrate` (scripts/lib/trace-actors.mjs).
export const trace = (traceId: string) => `TRACE#${traceId}`;
export const logsBy = (actorId: string) => `ACTOR#${actorId}#`;
export const log = (traceId: string, actorId: string, logId: string) => ({ PK: trace(traceId), SK: `ACTOR#${actorId}#${logId}` });

// Idempotency records of creations, per user and key, in the user's partition (the deletion
// of the account removes them with the rest of it).
export const idempotency = (userId: string, key: string) => ({ PK: `USER#${userId}`, SK: `IDEMPOTENCY#${key}` });

// Home feed (lib/feed): one entry per (reader, post), newest first by the post's ULID. Written
// for the author in the post's own transaction and for followers by the fan-out job.
export const homeFeed = (readerId: string) => `HOME#${readerId}`;
export const homeEntry = (readerId: string, postId: string) => ({ PK: homeFeed(readerId), SK: postId });
// A followed author with more than FANOUT_MAX_FOLLOWERS followers: the reader's feed reads
// that author's posts when it is read instead of receiving copies.
export const pullSource = (readerId: string, authorId: string) => ({ PK: `USER#${readerId}`, SK: `${PULL_PREFIX}${authorId}` });

// Notifications (lib/notifications): one item per (recipient, cause), so the undo of an
// action finds and removes exactly its notification and a repeat replaces it. GSI1 lists a
// recipient's notifications newest first; GSI2 those of one actor, for blocks.
export const notification = (recipientId: string, cause: string) => ({ PK: `NOTIFS#${recipientId}`, SK: cause });
export const notificationIndexes = (recipientId: string, actorId: string, createdAt: string, id: string) => ({
  GSI1PK: notificationsOf(recipientId),
  GSI1SK: `${createdAt}#${id}`,
  GSI2PK: notificationsFrom(recipientId, actorId),
  GSI2SK: `${createdAt}#${id}`,
});
export const notificationsOf = (recipientId: string) => `NOTIFS#${recipientId}`;
export const notificationsFrom = (recipientId: string, actorId: string) => `NOTIFS#${recipientId}#FROM#${actorId}`;
export const notificationState = (recipientId: string) => ({ PK: `USER#${recipientId}`, SK: 'NOTIF_STATE' });
/** That an expired notification has left the unread count: its expiry counts once, however often its change record comes. */
export const notificationExpired = (recipientId: string, notificationId: string) => ({ PK: `NOTIFS#${recipientId}`, SK: `EXPIRED#${notificationId}` });

// Live updates (lib/live, contract section 20): a user's WebSocket connections and Web Push
// subscriptions in one partition, so "whom to tell" is one Query whatever reaches the user.
export const live = (userId: string) => `LIVE#${userId}`;
export const CONN_PREFIX = 'CONN#';
export const PUSH_PREFIX = 'PUSH#';
export const connection = (userId: string, connectionId: string) => ({ PK: live(userId), SK: `${CONN_PREFIX}${connectionId}` });
// Whose a connection is ($disconnect names only the connection).
export const connectionOwner = (connectionId: string) => ({ PK: `CONNECTION#${connectionId}`, SK: 'CONNECTION' });
export const pushSubscription = (userId: string, subscriptionId: string) => ({ PK: live(userId), SK: `${PUSH_PREFIX}${subscriptionId}` });

// Background jobs of the change stream (lib/events/jobs.ts): how far a chunked job has got.
export const job = (kind: string, id: string) => ({ PK: `JOB#${kind}#${id}`, SK: 'JOB' });

// Background cleanup jobs (deleted posts and comments). GSI1 orders them by the last time a
// worker took them up, so the sweeper finds the stalled ones with one Query.
export const cleanupJob = (kind: string, id: string) => ({ PK: `CLEANUP#${kind}#${id}`, SK: 'JOB' });
export const cleanupJobIndex = (kind: string, id: string, touchedAt: string) => ({ GSI1PK: cleanups(), GSI1SK: `${touchedAt}#${kind}#${id}` });
export const cleanups = () => 'CLEANUPS';

// Media (contract section 12): one item per upload, read by id only (its owner's GET, a
// post or profile using it, its processing).
export const media = (mediaId: string) => ({ PK: `MEDIA#${mediaId}`, SK: 'MEDIA' });
// GSI2 lists an owner's uploads (GSI2SK: the media id), for the deletion of the account.
export const mediaOf = (ownerId: string) => `MEDIAOF#${ownerId}`;

// Accounts hidden from everyone (lib/users/gone.ts): suspended, or deleted and not yet
// cleaned up. One item per account in one partition: read by key beside the block edges
// (lib/graph/relations.ts) and as a whole beside the block lists (lib/graph/hidden.ts).
export const gone = (userId: string) => ({ PK: 'GONE', SK: userId });
export const goneAll = () => 'GONE';
// The partition's version: a counter every transaction that adds or removes a GONE item moves,
// so an instance that read the partition once reads only this item while nothing changed
// (lib/graph/hidden.ts). Its sort key sorts before every user id (ULIDs are digits and capitals).
export const GONE_VERSION_SK = '#VERSION';
export const goneVersion = () => ({ PK: 'GONE', SK: GONE_VERSION_SK });

// Reports (contract section 15): one open report per target; who reported it, one small
// item each (so a repeat is found by key and the report never grows); GSI1 is the queue of
// a status, oldest first; GSI2 finds a reporter's markers for the deletion of the account.
export const report = (reportId: string) => ({ PK: `REPORT#${reportId}`, SK: 'REPORT' });
export const openReport = (targetType: string, targetId: string) => ({ PK: `REPORTED#${targetType}#${targetId}`, SK: 'OPEN' });
export const reporter = (reportId: string, userId: string) => ({ PK: `REPORT#${reportId}`, SK: `BY#${userId}` });
export const reportQueue = (status: string) => `REPORTS#${status}`;
export const reportsBy = (userId: string) => `REPORTSBY#${userId}`;

/**
 * (The sort key of the trace records written before the actor led it; no key uses it now.)
 * A fixed-width hex string whose lexical order is the numeric order of any finite
 * float64 (negative, fractional and huge values included): flip every bit of a
 * negative number, only the sign bit of a positive one.
 */
export function sortableNumber(n: number): string {
  const buf = Buffer.alloc(8);
  buf.writeDoubleBE(n === 0 ? 0 : n); // -0 sorts as 0
  if (buf[0]! & 0x80) for (let i = 0; i < 8; i++) buf[i] = ~buf[i]! & 0xff;
  else buf[0] = buf[0]! | 0x80;
  return buf.toString('hex');
}

// E-mail (contract section 16, lib/mail). The outbox: one item per message, written in the
// transaction of the change it reports and sent by the change stream (lib/mail/reactions.ts);
// it expires (TTL) a few days after. An address on the suppression list (a bounce or a
// complaint) is sent nothing.
export const mail = (mailId: string) => ({ PK: `MAIL#${mailId}`, SK: 'MAIL' });
export const suppressed = (address: string) => ({ PK: `SUPPRESSED#${address.toLowerCase()}`, SK: 'SUPPRESSED' });
// A token of an e-mail (verification, reset, e-mail change), in its account's partition (the
// token names the account: `<userId>.<secret>`) by the SHA-256 of the token: its presentation is
// one GetItem and one conditional delete, and the account's deletion sweeps it. The account's
// current token of a kind names the newest one's hash: older ones are void.
export const mailToken = (userId: string, hash: string) => ({ PK: `USER#${userId}`, SK: `MAILTOKEN#${hash}` });
export const currentMailToken = (userId: string, kind: string) => ({ PK: `USER#${userId}`, SK: `MAILTOKEN_CURRENT#${kind}` });
// The account's pending e-mail change (the address awaiting confirmation).
export const pendingEmail = (userId: string) => ({ PK: `USER#${userId}`, SK: 'PENDING_EMAIL' });
// The e-mails of a kind an account was sent within a window (lib/mail/rate.ts), kept with a TTL.
export const mailRate = (userId: string, kind: string) => ({ PK: `USER#${userId}`, SK: `MAIL_RATE#${kind}` });
// A password reset request (POST /auth/password/forgot): written alone, read by the stream.
export const resetRequest = (requestId: string) => ({ PK: `RESET_REQUEST#${requestId}`, SK: 'REQUEST' });
// Hashtags (contract section 19, lib/tags). A tagged post has one entry per tag in one of
// TAG_SHARDS partitions of the tag (chosen by the post id), sort key the post id: a page
// Queries every shard newest first and merges, and 1,000 new posts a second spread over the
// shards (docs/PERFORMANCE.md, "Hashtags"). The tag's postsCount is the sum of its counter
// shards, each moved once per entry by the stream (the marker beside the entry makes it once).
export const TAG_SHARDS = 8;
export const tagShard = (tag: string, shard: number) => `TAG#${tag}#${shard}`;
export const tagEntry = (tag: string, postId: string) => ({ PK: tagShard(tag, shardOf(postId, TAG_SHARDS)), SK: postId });
export const tagCounted = (tag: string, postId: string) => ({ PK: `TAGCOUNTED#${tag}#${shardOf(postId, TAG_SHARDS)}`, SK: postId });
export const tagCounters = (tag: string) => `TAGCOUNT#${tag}`;
export const tagCounter = (tag: string, shard: number) => ({ PK: tagCounters(tag), SK: `SHARD#${shard}` });
// The tag directory for search: one item per tag with its postsCount, partitioned by the
// name's first code point, sorted by name (a prefix is one Query).
export const tagDirectoryOf = (prefix: string) => `TAGS#${[...prefix][0] ?? ''}`;
export const tagDirectory = (tag: string) => ({ PK: tagDirectoryOf(tag), SK: tag });
// Trending (lib/tags/trends.ts): one item per (tag, account) holding when the account last
// used the tag, and per hour a counter item per tag of the accounts whose last use fell in it.
export const trendUse = (tag: string, userId: string) => ({ PK: `TRENDUSE#${tag}`, SK: userId });
export const trendHour = (hour: string) => `TRENDHOUR#${hour}`;
export const trendCounter = (hour: string, tag: string) => ({ PK: trendHour(hour), SK: tag });
export const trends = () => ({ PK: 'TRENDS', SK: 'TAGS' });
// A caption edit's change of mentions, beside the post (lib/posts/write.ts): its INSERT or MODIFY
// carries the mentions before and after, for the notifications (a like's MODIFY of the post
// itself never reaches the stream consumer).
export const postMentions = (postId: string) => ({ PK: `POST#${postId}`, SK: '#MENTIONS' });
