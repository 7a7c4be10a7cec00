// JSON Schemas (OpenAPI 3.1 components) of what the API answers: the seed's objects
// (seed-spec.md part 2) and the contract's additions. Requests are documented from the
// handlers' own zod schemas; these describe responses only, so they are plain JSON Schema
// and never validate anything.
import { FEED_CURSOR_PATTERN, LIST_CURSOR_PATTERN } from '../fields';
import { INSTANT_PATTERN } from '../comments/fields';

type Schema = Record<string, unknown>;

const str: Schema = { type: 'string' };
const bool: Schema = { type: 'boolean' };
const int: Schema = { type: 'integer', minimum: 0 };
const dateTime: Schema = { type: 'string', format: 'date-time' };
const ids = (description: string): Schema => ({ type: 'array', items: { type: 'string' }, description });
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Record<string, Schema>, optional: string[] = []): Schema => ({
  type: 'object',
  properties,
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
});
const extend = (base: string, properties: Record<string, Schema>): Schema => ({ allOf: [ref(base), obj(properties)] });

export const components: Record<string, Schema> = {
  User: {
    ...obj({
      _id: { ...str, description: 'user identifier (a ULID)' },
      name: str,
      username: str,
      email: { ...str, format: 'email', description: 'only on the caller\'s own object' },
      image: { ...str, description: 'image URL or ""' },
      bio: str,
      gender: str,
      emailVerified: bool,
      isPrivate: { ...bool, description: 'a private account (section 18): to anyone but its owner and approved followers, followers and following are []' },
      followers: ids('user ids, newest first; at most 100 in a single-user answer, 10 in a list'),
      following: ids('user ids, newest first; capped like followers'),
      bookmarks: ids('post ids; only on the caller\'s own object'),
      blocked_users: ids('user ids; only on the caller\'s own object'),
      twoFactorEnabled: { ...bool, description: 'whether two-factor sign-in is on; only on the caller\'s own object' },
      createdAt: dateTime,
      updatedAt: dateTime,
    }, ['email', 'bookmarks', 'blocked_users', 'twoFactorEnabled']),
    description: 'A user with the base fields. email, bookmarks, blocked_users and twoFactorEnabled appear only on the caller\'s own object.',
  },
  UserProfile: extend('User', { isFollowing: bool, requested: { ...bool, description: 'the caller has a follow request pending with this user' }, isMuted: bool, isBlocked: bool, postsCount: int, followersCount: int, followingCount: int }),
  UserWithFollowing: extend('User', { isFollowing: bool, requested: { ...bool, description: 'the caller has a follow request pending with this user' } }),
  SuggestedUser: extend('User', {
    mutualFollowers: { type: 'array', items: ref('User'), description: 'accounts that follow both the caller and this user' },
    followerBy: { type: 'array', items: ref('User'), description: 'accounts the caller follows that follow this user' },
  }),
  Post: obj({
    _id: str,
    image: { ...str, description: 'a JSON-stringified array of image URLs' },
    image_public_id: str,
    author: { ...str, description: 'user identifier' },
    caption: str,
    altText: { type: 'array', items: str, description: 'one description per image, in the order of the images; "" for none' },
    hashtags: { type: 'array', items: str, description: 'the caption\'s hashtags, normalized (NFKC, lower case), in order of first use' },
    mentions: ids('ids of the accounts the caption mentions (neither deleted nor suspended), in order of first mention'),
    likes: ids('ids of users who liked the post, newest first: at most 100 in a single-post answer, 10 in a list (likesCount is the total; GET /posts/{post_id}/likes lists them all)'),
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
  Tag: obj({
    name: { ...str, description: 'the normalized name (NFKC, lower case), without #' },
    postsCount: { ...int, description: 'posts carrying the tag that everyone may see (of public accounts neither suspended nor deleted)' },
  }),
  TrendingTag: extend('Tag', { authors: { ...int, description: 'distinct accounts that used the tag in the last 24 hours' } }),
  PostView: extend('Post', { isLiked: bool, isBookmarked: bool, likesCount: int, commentsCount: int }),
  Comment: obj({
    _id: str,
    text: str,
    author: { ...str, description: 'user identifier' },
    post: { ...str, description: 'post identifier' },
    parentComment: { type: ['string', 'null'], description: 'the top-level comment of a reply; null on a top-level comment' },
    replyTo: { type: ['string', 'null'], description: 'what a reply answers; null on a top-level comment' },
    mentions: ids('ids of the accounts the text mentions (neither deleted nor suspended), in order of first mention'),
    likes: ids('ids of users who liked the comment, newest first, at most 10 (likesCount is the total)'),
    likesCount: { ...int, description: 'the exact number of likes' },
    isLiked: { ...bool, description: 'whether the caller liked it (false in a moderator\'s report target)' },
    repliesCount: int,
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
  Notification: obj({
    _id: str,
    type: { type: 'string', enum: ['FOLLOW', 'POST_LIKE', 'COMMENT', 'REPLY', 'COMMENT_LIKE', 'FOLLOW_REQUEST', 'FOLLOW_REQUEST_APPROVED', 'MENTION'] },
    actor: ref('User'),
    post: { type: ['string', 'null'], description: 'the post concerned (likes, comments, replies), else null' },
    comment: { type: ['string', 'null'], description: 'the comment or reply concerned, else null' },
    createdAt: dateTime,
    read: bool,
  }),
  LogRecord: obj({
    _id: str,
    scenarioId: str,
    stepId: str,
    traceId: str,
    simTimestamp: { type: 'number' },
    level: { type: 'string', enum: ['INFO', 'WARN', 'ERROR'] },
    action: obj({ type: { ...str, description: 'UPPER_SNAKE, e.g. POST_CREATED' }, description: str }),
    actor: obj({ type: { type: 'string', const: 'user' }, id: str }),
    payload: { type: 'object', description: 'path parameters and body, secrets removed' },
    stateDiff: obj({ before: { type: 'object' }, after: { type: 'object' }, changes: { type: 'array', items: str } }),
    createdAt: dateTime,
  }),
  // Media (contract section 12).
  Upload: obj({
    mediaId: str,
    method: { type: 'string', enum: ['PUT', 'POST'], description: 'PUT: send the bytes as the body to `url` with exactly `headers`' },
    url: { ...str, format: 'uri', description: 'presigned storage URL, valid until expiresAt' },
    fields: { type: 'object', additionalProperties: str, description: 'form fields of a presigned POST; {} for PUT' },
    headers: { type: 'object', additionalProperties: str, description: 'the headers to send with a PUT (Content-Type, Content-Length); {} for POST' },
    maxBytes: { type: 'integer', minimum: 1, description: 'storage refuses a larger file' },
    expiresAt: dateTime,
  }),
  Media: obj({
    _id: str,
    owner: { ...str, description: 'user identifier' },
    status: { type: 'string', enum: ['pending', 'ready', 'rejected'] },
    contentType: { type: 'string', enum: ['image/jpeg', 'image/png', 'image/webp'] },
    width: { type: ['integer', 'null'], minimum: 1, description: 'after EXIF orientation; null until ready' },
    height: { type: ['integer', 'null'], minimum: 1 },
    url: { type: ['string', 'null'], description: 'the re-encoded image at its own size; null until ready' },
    variants: {
      type: ['object', 'null'],
      properties: { 1080: str, 640: str, 320: str },
      required: ['1080', '640', '320'],
      description: 'URLs of the image scaled to that longest side (never enlarged); null until ready',
    },
    reason: { type: ['string', 'null'], description: 'why it was rejected; null otherwise' },
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
  Session: obj({
    _id: str,
    createdAt: dateTime,
    lastUsedAt: { ...dateTime, description: 'the last refresh (or the start)' },
    userAgent: { ...str, description: 'the User-Agent of the login or registration, at most 256 characters' },
    current: { ...bool, description: 'the session of the token used' },
  }),
  // Web Push (contract section 20).
  PushSubscription: obj({
    _id: str,
    types: { type: 'array', items: { type: 'string', enum: ['FOLLOW', 'POST_LIKE', 'COMMENT', 'REPLY', 'COMMENT_LIKE', 'FOLLOW_REQUEST', 'FOLLOW_REQUEST_APPROVED', 'MENTION'] }, description: 'the notification types pushed to it' },
    createdAt: dateTime,
  }),
  // Reports and moderation (contract section 15).
  Report: obj({
    _id: str,
    targetType: { type: 'string', enum: ['post', 'comment', 'user'] },
    targetId: str,
    reason: { type: 'string', enum: ['spam', 'nudity', 'harassment', 'violence', 'hate', 'self_harm', 'other'], description: 'the first reporter\'s' },
    status: { type: 'string', enum: ['open', 'resolved'] },
    createdAt: dateTime,
    action: { type: 'string', enum: ['dismiss', 'remove', 'suspend'], description: 'resolved reports only' },
    note: { ...str, description: 'the moderator\'s note, when the resolution had one' },
    resolvedBy: { ...str, description: 'the moderator (resolved reports only)' },
    resolvedAt: { ...dateTime, description: 'resolved reports only' },
  }, ['action', 'note', 'resolvedBy', 'resolvedAt']),
  ModerationReport: {
    allOf: [ref('Report'), obj({
      reporters: { type: 'integer', minimum: 1, description: 'how many users reported the target while this report was open' },
      target: {
        anyOf: [ref('Post'), ref('Comment'), ref('User'), { type: 'null' }],
        description: 'the post, comment or user as it is now: its fields as every other route shows them, with its embedded id arrays (likes, followers, following) empty (they have their own list routes); null once gone',
      },
    })],
  },
  PagePagination: obj({ currentPage: int, totalPages: int, totalPosts: int, hasNextPage: bool, hasPrevPage: bool }),
  // Each list's cursor in the form its route emits and takes back as `cursor` (three forms).
  CursorPagination: obj({
    hasMore: bool,
    nextCursor: { type: ['string', 'null'], format: 'date-time', pattern: INSTANT_PATTERN, description: 'createdAt of the last item returned; null when none was' },
  }),
  ListPagination: obj({
    hasMore: bool,
    nextCursor: { type: ['string', 'null'], pattern: LIST_CURSOR_PATTERN, description: 'opaque (`<17 digits of a time>.<id>`); pass as `cursor` for the next page; null on the last page' },
  }),
  FeedPagination: obj({
    hasMore: bool,
    nextCursor: { type: ['string', 'null'], pattern: FEED_CURSOR_PATTERN, description: 'opaque (the id of the last post of the page); pass as `cursor` for the next page; null on the last page' },
  }),
  Error: obj({
    success: { type: 'boolean', const: false },
    message: { ...str, description: 'a sentence for a person' },
    code: { ...str, description: 'machine-readable, e.g. VALIDATION_ERROR' },
    details: {
      type: 'array',
      items: obj({ path: { ...str, description: 'the field' }, message: str }),
      description: 'validation errors only: one entry per bad field',
    },
  }, ['details']),
};
