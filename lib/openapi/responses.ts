// The success answer and the route-specific errors of every route of the contract, keyed
// by route ("METHOD /path" as in functions/*/functions.json). The generic errors (400
// validation, 401, 404 for a path id, 413/415 for a body, 500) are derived from the
// handler's spec in document.ts. A new route needs one entry here; the generator refuses
// a route without one.
import { ref } from './schemas';

type Schema = Record<string, unknown>;

export interface RouteDoc {
  summary: string;
  status: 200 | 201 | 202;
  /** A second success status with the same body (a repeat that creates nothing), and when it is answered. */
  also?: { status: 200; when: string };
  /** Properties of the success body besides `success: true`. */
  body: Record<string, Schema>;
  /** Error answers particular to this route: status -> codes. */
  errors?: Record<number, string[]>;
  /** The body is sent as is (not an API envelope). */
  raw?: Schema;
  /** Another success body with the same status (properties besides `success: true`), and when it is answered: the answer is one of the two. */
  alternative?: { body: Record<string, Schema>; when: string };
}

const message: Schema = { type: 'string' };
const list = (name: string): Schema => ({ type: 'array', items: ref(name) });
const follow = { message, isFollowing: { type: 'boolean' }, requested: { type: 'boolean', description: 'a follow request is pending (a private account, section 18)' }, followersCount: { type: 'integer', minimum: 0 } };
const like = { message, isLiked: { type: 'boolean' }, likesCount: { type: 'integer', minimum: 0 } };
const tokens = {
  token: { type: 'string', description: 'access token (JWT), sent as Authorization: Bearer' },
  refreshToken: { type: 'string', description: 'opaque; good for one POST /auth/refresh' },
  expiresIn: { type: 'integer', minimum: 1, description: 'lifetime of token, seconds' },
};
const twoFactorRequired = {
  twoFactorRequired: { type: 'boolean', const: true },
  challenge: { type: 'string', description: 'for POST /auth/login/2fa: good for 5 minutes and one sign-in' },
};
const forbiddenOrMissing = { 403: ['FORBIDDEN'], 404: ['NOT_FOUND'] };

export const ROUTE_DOCS: Record<string, RouteDoc> = {
  'POST /auth/register': {
    summary: 'Create an account; starts a session: answers its tokens and the own user', status: 201, body: { message, ...tokens, user: ref('User') }, errors: { 409: ['USERNAME_TAKEN', 'EMAIL_TAKEN'] } },
  'POST /auth/login': {
    summary: 'Log in with a username or e-mail address and a password; starts a session (403 for a suspended account, told only after a right password). With two-factor sign-in on, answers a challenge for POST /auth/login/2fa instead', status: 200, body: { message, ...tokens, user: ref('User') }, alternative: { body: twoFactorRequired, when: 'two-factor sign-in is on: no token, a challenge for POST /auth/login/2fa' }, errors: { 401: ['INVALID_CREDENTIALS'], 403: ['FORBIDDEN'], 429: ['TOO_MANY_ATTEMPTS'] } },
  'POST /auth/refresh': {
    summary: 'A new access token and refresh token for a refresh token (each refresh token is good once; a used one ends its session)', status: 200, body: tokens, errors: { 401: ['UNAUTHORIZED'] } },
  'POST /auth/logout': {
    summary: 'End the session of the token used', status: 200, body: { message } },
  'GET /auth/sessions': {
    summary: "The caller's live sessions, newest first", status: 200, body: { sessions: list('Session') } },
  'DELETE /auth/sessions/{session_id}': {
    summary: "End one of the caller's sessions", status: 200, body: { message } },
  'POST /auth/verify-email': {
    summary: 'Present a verification or e-mail change token (public): the address it was sent to becomes the account\'s verified address; an e-mail change switches the account to it atomically', status: 200, body: { message }, errors: { 400: ['INVALID_TOKEN'], 409: ['EMAIL_TAKEN'] } },
  'POST /auth/verify-email/resend': {
    summary: 'A new verification e-mail to the address awaiting verification (the new one of a pending e-mail change, else the unverified address); at most 5 in 24 hours', status: 202, body: { message }, also: { status: 200, when: 'nothing awaits verification: nothing is sent' }, errors: { 429: ['TOO_MANY_ATTEMPTS'] } },
  'POST /auth/password/forgot': {
    summary: 'Ask for a password reset e-mail (public): the same answer for every address; a known address gets one, at most 3 per account per hour', status: 202, body: { message } },
  'POST /auth/password/reset': {
    summary: 'Set a new password with a reset token (public): ends every session, lifts the login lock, verifies the address, signs nobody in', status: 200, body: { message }, errors: { 400: ['INVALID_TOKEN'] } },
  'POST /users/me/email': {
    summary: 'Ask to change the e-mail address (body: the new address and the password): a confirmation goes to the new address; the account keeps its address until it is confirmed', status: 202, body: { message }, errors: { 401: ['INVALID_CREDENTIALS'], 409: ['EMAIL_TAKEN'], 429: ['TOO_MANY_ATTEMPTS'] } },
  'POST /auth/password': {
    summary: 'Change the password; ends every other session of the account', status: 200, body: { message }, errors: { 401: ['INVALID_CREDENTIALS'], 429: ['TOO_MANY_ATTEMPTS'] } },
  'POST /auth/2fa/setup': {
    summary: 'Begin turning two-factor sign-in on (body: the password): a new TOTP secret, pending until POST /auth/2fa/enable; the secret is never answered again', status: 200, body: { secret: { type: 'string', description: 'the TOTP secret, base32 (160 bits): RFC 6238, SHA-1, 6 digits, 30 s' }, otpauthUrl: { type: 'string', description: 'otpauth://totp/Aperture:<username>?secret=...&issuer=Aperture&algorithm=SHA1&digits=6&period=30, for an authenticator app (as a QR code)' } }, errors: { 401: ['INVALID_CREDENTIALS'], 429: ['TOO_MANY_ATTEMPTS'] } },
  'POST /auth/2fa/enable': {
    summary: 'Turn two-factor sign-in on with a first code of the pending secret; answers 10 single-use recovery codes, shown this once', status: 200, body: { recoveryCodes: { type: 'array', items: { type: 'string' }, description: '10 recovery codes (xxxxx-xxxxx-xxxxx-xxxxx), each good once in place of a TOTP code' } }, errors: { 401: ['INVALID_CREDENTIALS'], 429: ['TOO_MANY_ATTEMPTS'] } },
  'POST /auth/2fa/disable': {
    summary: 'Turn two-factor sign-in off (body: the password and a TOTP or recovery code); a no-op when it is off', status: 200, body: { message }, errors: { 401: ['INVALID_CREDENTIALS'], 429: ['TOO_MANY_ATTEMPTS'] } },
  'POST /auth/login/2fa': {
    summary: 'The second step of a login with two-factor sign-in on: the challenge of POST /auth/login and a TOTP or recovery code; starts a session', status: 200, body: { message, ...tokens, user: ref('User') }, errors: { 401: ['INVALID_CREDENTIALS'], 403: ['FORBIDDEN'], 429: ['TOO_MANY_ATTEMPTS'] } },

  'POST /reports': {
    summary: 'Report a post, a comment or an account; one open report per target: the first answers 201, each further reporter adds one to its reporters and answers 200, the same reporter again changes nothing (200)', status: 201, body: { message, report: ref('Report') }, also: { status: 200, when: 'the target has an open report already: a further reporter, or the same one again' }, errors: { 400: ['SELF_ACTION'], 404: ['NOT_FOUND'] } },
  'GET /moderation/reports': {
    summary: 'The reports of a status, oldest first, each with its reporters count and its target as it is now (null once gone); scope moderate', status: 200, body: { reports: list('ModerationReport'), pagination: ref('ListPagination') }, errors: { 403: ['FORBIDDEN'] } },
  'POST /moderation/reports/{report_id}/resolve': {
    summary: 'Resolve an open report: dismiss (nothing else changes), remove (deletes the post or comment as its author would), suspend (ends every session of the owner and hides the account and all it wrote until unsuspended); scope moderate', status: 200, body: { message, report: ref('Report') }, errors: { 400: ['SELF_ACTION'], 403: ['FORBIDDEN'], 409: ['REPORT_RESOLVED', 'OWNER_UNKNOWN'] } },
  'POST /moderation/users/{user_id}/unsuspend': {
    summary: 'Lift the suspension of an account; scope moderate', status: 200, body: { message }, errors: { 403: ['FORBIDDEN'] } },
  'DELETE /users/me': {
    summary: 'Delete the account (body: its password): at once every token of it is refused, its profile, posts and comments answer 404 and leave every list, its username and e-mail are free; within 60 s no item of it remains and every counter it touched is exact', status: 200, body: { message }, errors: { 401: ['INVALID_CREDENTIALS'], 429: ['TOO_MANY_ATTEMPTS'] } },
  'GET /users/me': {
    summary: "The caller's own user", status: 200, body: { user: ref('User') } },
  'GET /users/{identifier}': {
    summary: "A user's profile by id or username", status: 200, body: { user: ref('UserProfile') } },
  'POST /users/profile/edit': {
    summary: "Change any of the caller's name, username, bio, gender, image, isPrivate (going public approves every pending follow request)", status: 200, body: { message, user: ref('User') }, errors: { 409: ['USERNAME_TAKEN'] } },
  'GET /users/suggested': {
    summary: 'Suggested users, by shared connections, then the most followed', status: 200, body: { users: list('SuggestedUser') } },
  'GET /users/search': {
    summary: 'Search users by username or name prefix', status: 200, body: { users: list('User') } },
  'GET /users/blocked': {
    summary: 'The users the caller blocked, newest first', status: 200, body: { message, data: list('User'), count: { type: 'integer', minimum: 0 }, pagination: ref('ListPagination') } },
  'GET /users/{identifier}/followers': {
    summary: "A user's followers, newest first", status: 200, body: { followers: list('UserWithFollowing'), pagination: ref('ListPagination') }, errors: { 403: ['PRIVATE_ACCOUNT'] } },
  'GET /users/{identifier}/following': {
    summary: 'The users a user follows, newest first', status: 200, body: { following: list('UserWithFollowing'), pagination: ref('ListPagination') }, errors: { 403: ['PRIVATE_ACCOUNT'] } },
  'GET /users/follow-requests': {
    summary: "The caller's pending incoming follow requests, newest first", status: 200, body: { requests: list('UserWithFollowing'), pagination: ref('ListPagination') } },
  'POST /users/follow-requests/{identifier}/approve': {
    summary: 'Approve a pending follow request: it becomes a follow and the requester is told', status: 200, body: { message, followersCount: { type: 'integer', minimum: 0 } } },
  'POST /users/follow-requests/{identifier}/reject': {
    summary: 'Reject a pending follow request (the requester is told nothing)', status: 200, body: { message } },
  'POST /users/followers/{identifier}/remove': {
    summary: 'That user stops following the caller (nobody is told); a non-follower changes nothing', status: 200, body: { message, followersCount: { type: 'integer', minimum: 0 } } },
  'POST /users/mute/{identifier}': {
    summary: "Mute a user: its posts leave the caller's feed and explore, its actions stop notifying the caller (idempotent)", status: 200, body: { message, isMuted: { type: 'boolean' } }, errors: { 400: ['SELF_ACTION'] } },
  'POST /users/unmute/{identifier}': {
    summary: 'Unmute a user (idempotent)', status: 200, body: { message, isMuted: { type: 'boolean' } } },
  'GET /users/muted': {
    summary: 'The users the caller muted, newest first', status: 200, body: { users: list('UserWithFollowing'), pagination: ref('ListPagination') } },
  'POST /users/follow/{identifier}': {
    summary: 'Follow a user (idempotent); a private account: a pending request', status: 200, body: follow, errors: { 400: ['SELF_ACTION'], 403: ['FORBIDDEN', 'FOLLOW_LIMIT_REACHED'] } },
  'POST /users/unfollow/{identifier}': {
    summary: 'Unfollow a user (idempotent)', status: 200, body: follow },
  'POST /users/block/{identifier}': {
    summary: 'Block a user: removes follows both ways (idempotent)', status: 200, body: { message, isBlocked: { type: 'boolean' } }, errors: { 400: ['SELF_ACTION'] } },
  'POST /users/unblock/{identifier}': {
    summary: 'Unblock a user (idempotent)', status: 200, body: { message, isBlocked: { type: 'boolean' } } },

  'POST /posts/create': {
    summary: 'Create a post', status: 201, body: { message, post: ref('Post') } },
  'GET /posts/feed': {
    summary: 'Home feed: posts of the caller and of the accounts the caller follows, newest first', status: 200, body: { posts: list('PostView'), pagination: ref('FeedPagination') } },
  'GET /posts/explore': {
    summary: 'Explore: posts of accounts the caller does not follow', status: 200, body: { posts: list('PostView'), pagination: ref('PagePagination') } },
  'GET /tags/{tag}': {
    summary: 'A hashtag and how many posts everyone may see carry it (0 for any valid tag no post carries)', status: 200, body: { tag: ref('Tag') } },
  'GET /tags/{tag}/posts': {
    summary: 'Posts carrying a hashtag that the caller may see, newest first', status: 200, body: { posts: list('PostView'), pagination: ref('FeedPagination') } },
  'GET /tags': {
    summary: 'Hashtags whose name starts with the query, most posts first', status: 200, body: { tags: list('Tag') } },
  'GET /trends/tags': {
    summary: 'Trending hashtags: used by at least 3 accounts in the last 24 hours, ranked by the rise against the 24 hours before (at most 10)', status: 200, body: { tags: list('TrendingTag') } },
  'GET /posts/{post_id}': {
    summary: 'A post', status: 200, body: { post: ref('PostView') } },
  'DELETE /posts/{post_id}': {
    summary: 'Delete a post (author only)', status: 200, body: { message }, errors: forbiddenOrMissing },
  'GET /posts/user/{identifier}': {
    summary: "A user's posts", status: 200, body: { posts: list('PostView'), pagination: ref('PagePagination') }, errors: { 403: ['PRIVATE_ACCOUNT'] } },
  'GET /posts/{post_id}/likes': {
    summary: 'Users who liked a post', status: 200, body: { likes: list('UserWithFollowing'), pagination: ref('ListPagination') } },
  'POST /posts/like/{post_id}': {
    summary: 'Like a post', status: 200, body: like, errors: forbiddenOrMissing },
  'POST /posts/unlike/{post_id}': {
    summary: 'Remove a like', status: 200, body: like, errors: { 404: ['NOT_FOUND'] } },
  'POST /posts/bookmark/{post_id}': {
    summary: 'Bookmark a post', status: 200, body: { message, isBookmarked: { type: 'boolean' } }, errors: forbiddenOrMissing },
  'POST /posts/unbookmark/{post_id}': {
    summary: 'Remove a bookmark', status: 200, body: { message, isBookmarked: { type: 'boolean' } }, errors: { 404: ['NOT_FOUND'] } },

  'POST /comments/create/{post_id}': {
    summary: 'Comment on a post', status: 201, body: { message, comment: ref('Comment') }, errors: forbiddenOrMissing },
  'POST /comments/reply/{comment_id}': {
    summary: 'Reply to a top-level comment', status: 201, body: { message, data: ref('Comment') }, errors: { 400: ['REPLY_DEPTH_EXCEEDED'], ...forbiddenOrMissing } },
  'GET /comments/replies/{comment_id}': {
    summary: 'Replies of a comment, oldest first', status: 200, body: { message, data: { type: 'object', properties: { replies: list('Comment'), pagination: ref('CursorPagination') }, required: ['replies', 'pagination'] } } },
  'GET /comments/post/{post_id}': {
    summary: "A post's top-level comments, oldest first", status: 200, body: { message, data: { type: 'object', properties: { comments: list('Comment'), pagination: ref('CursorPagination') }, required: ['comments', 'pagination'] } } },
  'DELETE /comments/{comment_id}': {
    summary: 'Delete a comment (its author or the post author); a comment takes its replies with it', status: 200, body: { message }, errors: forbiddenOrMissing },
  'POST /comments/like/{comment_id}': {
    summary: 'Like a comment (idempotent)', status: 200, body: like, errors: forbiddenOrMissing },
  'POST /comments/unlike/{comment_id}': {
    summary: 'Unlike a comment (idempotent)', status: 200, body: like, errors: { 404: ['NOT_FOUND'] } },

  'GET /notifications': {
    summary: "The caller's notifications, newest first, and the exact number of unread ones", status: 200,
    body: { notifications: list('Notification'), unreadCount: { type: 'integer', minimum: 0 }, pagination: ref('ListPagination') } },
  'POST /notifications/read': {
    summary: 'Mark every notification so far as read', status: 200, body: { unreadCount: { type: 'integer', const: 0 } } },

  'GET /push/vapid-key': {
    summary: "The VAPID public key a browser's pushManager.subscribe needs as applicationServerKey (public)", status: 200,
    body: { publicKey: { type: 'string', pattern: '^[A-Za-z0-9_-]{87}$', description: 'base64url of the 65-byte uncompressed P-256 key' } } },
  'POST /push/subscriptions': {
    summary: "Subscribe a browser's PushSubscription to the caller's notifications (the same endpoint again replaces the earlier one); it ends with the session", status: 201,
    body: { subscription: ref('PushSubscription') } },
  'GET /push/subscriptions': {
    summary: "The caller's push subscriptions, of every session, newest first", status: 200, body: { subscriptions: list('PushSubscription') } },
  'DELETE /push/subscriptions/{id}': {
    summary: "Remove one of the caller's push subscriptions", status: 200, body: { message } },

  'GET /logs/trace/{traceId}': {
    summary: 'The log records of a trace the caller may see (its own; all with the scope logs:read), in order; at most the first 1,000', status: 200,
    body: { message, data: { type: 'object', properties: {
      traceId: { type: 'string' }, count: { type: 'integer', minimum: 1 },
      truncated: { type: 'boolean', const: true, description: 'present when the trace holds more records than the 1,000 answered' },
      logs: list('LogRecord'),
    }, required: ['traceId', 'count', 'logs'] } },
  },
  'POST /media/uploads': {
    summary: 'Issue an upload: a presigned URL to send one image straight to storage (at most UPLOADS_PER_HOUR, 60, in any 60 minutes)', status: 201, body: { upload: ref('Upload') }, errors: { 429: ['TOO_MANY_ATTEMPTS'] } },
  'GET /media/{media_id}': {
    summary: 'One of the caller\'s media (pending, ready or rejected)', status: 200, body: { media: ref('Media') } },
  'GET /openapi.json': {
    summary: 'The OpenAPI 3.1 document of this API', status: 200, body: {}, raw: { type: 'object', description: 'this document' } },

  'POST /posts/edit/{post_id}': {
    summary: "Change a post's caption (its author only); updatedAt moves", status: 200, body: { message, post: ref('PostView') }, errors: { 403: ['FORBIDDEN'] } },
  'GET /posts/bookmarks': {
    summary: "The caller's bookmarked posts, newest bookmark first; deleted posts and posts of users on either side of a block are left out", status: 200, body: { posts: list('PostView'), pagination: ref('ListPagination') } },
};
