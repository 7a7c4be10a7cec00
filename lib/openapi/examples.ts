// The examples of the OpenAPI document, made in one place. Tools that read the document
// (Swagger UI's "Try it out", Prism, Portman/newman) send or mock what an example shows; left
// to themselves they generate values from the schemas, and a pattern with a lookahead (the
// text, username, e-mail and URL rules) makes them generate values the API refuses.
//
// exampleOf() derives an example from a schema: a value named below (by the field's place,
// then its name, then the rule it follows), else the schema's own const, default or first
// enum value, else one built from its structure (each property, one item of a list). A
// string nothing here names has no example: the generator throws, naming the field, so a
// new field is given one here. tests/deploy/openapi-examples.test.ts validates every example
// against its schema and against the handler's zod schema.
import { FEED_CURSOR_PATTERN, IDEMPOTENCY_KEY_PATTERN, LIST_CURSOR_PATTERN } from '../fields';
import { INSTANT_PATTERN } from '../comments/fields';
import { EMAIL_PATTERN, USERNAME_PATTERN } from '../users/fields';
import { SIM_TIMESTAMP_PATTERN, TOKEN_PATTERN, TRACEPARENT_PATTERN } from '../http/trace';

type Schema = Record<string, unknown>;

// Ids of the example objects, so an answer's references agree with each other (a post's
// author is the user shown, a comment's post the post shown).
const USER = '01JQ8Z6W4T5N2K7M9P3R5V8X0A';
const OTHER_USER = '01JQ8Z9B2C3D4E5F6G7H8J9K0M';
const POST = '01JQ90A1B2C3D4E5F6G7H8J9KM';
const COMMENT = '01JQ91Q2W3E4R5T6Y7Z8X9C0VB';
const REPLY = '01JQ92N3M4K5J6H7G8F9E0D1CA';
const NOTIFICATION = '01JQ93P4Q5R6S7T8V9W0X1Y2ZA';
const MEDIA = '01JQ94A5B6C7D8E9F0G1H2J3KM';
const REPORT = '01JQ95V6W7X8Y9Z0A1B2C3D4EF';
const SESSION = '01JQ96G7H8J9K0M1N2P3Q4R5ST';
const AT = '2026-03-14T15:09:26.535Z';
const IMAGE_URL = 'https://cdn.example.com/images/harbour-at-dusk.jpg';
const TRACE = 'trace-4bf92f3577b34da6';

/** The three cursor forms, each as its route emits it (see docs/ARCHITECTURE.md, "Cursors"). */
export const CURSOR_EXAMPLES = {
  /** The user lists, notifications, bookmarks, likers, moderation queues: `<17 digits of createdAt>.<id>`. */
  list: `20260314150926535.${OTHER_USER}`,
  /** The home feed: the id of the last post of the page. */
  feed: POST,
  /** Comments and replies: the createdAt of the last item. */
  thread: AT,
};

/** A property an answer's example leaves out (a field that a state of the object does not have). */
const OMIT = Symbol('omitted');

/** By rule: every field that follows one of these patterns. */
const BY_PATTERN: Record<string, unknown> = {
  '^[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26}$': POST,
  [LIST_CURSOR_PATTERN]: CURSOR_EXAMPLES.list,
  [FEED_CURSOR_PATTERN]: CURSOR_EXAMPLES.feed,
  [INSTANT_PATTERN]: CURSOR_EXAMPLES.thread,
  [USERNAME_PATTERN]: 'ada.lovelace',
  [EMAIL_PATTERN]: 'ada@example.com',
  [TOKEN_PATTERN]: TRACE,
  [TRACEPARENT_PATTERN]: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
  [SIM_TIMESTAMP_PATTERN]: '1773500966535',
  [IDEMPOTENCY_KEY_PATTERN]: 'c2d1f0e4-7b8a-4c3d-9e21-5f6a7b8c9d0e',
};

/**
 * By place (`<owner>.<path>`: a component or a route, then the field's path in it) and by name.
 * A place wins over a name, a name over a rule.
 */
const BY_NAME: Record<string, unknown> = {
  // Ids, as the example objects' references.
  _id: USER,
  'Post._id': POST,
  'Comment._id': COMMENT,
  'Notification._id': NOTIFICATION,
  'Media._id': MEDIA,
  'Upload.mediaId': MEDIA,
  'Report._id': REPORT,
  'Session._id': SESSION,
  'LogRecord._id': '01JQ97B8C9D0E1F2G3H4J5K6MN',
  author: USER,
  owner: USER,
  post: POST,
  comment: COMMENT,
  // A top-level comment; a reply names its thread and what it answers.
  'Comment.parentComment': null,
  'Comment.replyTo': null,
  replyTo: REPLY,
  targetId: POST,
  resolvedBy: OTHER_USER,
  post_id: POST,
  comment_id: COMMENT,
  media_id: MEDIA,
  session_id: SESSION,
  report_id: REPORT,
  user_id: OTHER_USER,
  identifier: 'ada.lovelace',
  followers: [OTHER_USER],
  following: [OTHER_USER],
  bookmarks: [POST],
  blocked_users: [],
  // Two-factor sign-in (RFC 6238's SHA-1 seed, in base32).
  secret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ',
  otpauthUrl: 'otpauth://totp/Aperture:ada.lovelace?issuer=Aperture&secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&algorithm=SHA1&digits=6&period=30',
  code: '287082',
  recoveryCodes: ['k7qdm-2xe4p-vb3sn-w6hja', 'r5tcz-mq2ly-bfj3d-xp4kw'],
  challenge: `${USER}.xK3v9Qm2LpR8sT1uW4yZ6aB0cD5eF7gH9iJ2kL4mN6o`,
  likes: [OTHER_USER],
  // People and their text.
  name: 'Ada Lovelace',
  username: 'ada.lovelace',
  email: 'ada@example.com',
  'User.image': 'https://cdn.example.com/avatars/ada.jpg',
  bio: 'Notes on the analytical engine.',
  gender: 'female',
  caption: 'The harbour at dusk.',
  'Post.image': JSON.stringify([IMAGE_URL]),
  image_public_id: 'harbour-at-dusk',
  // Hashtags, mentions and alt text (contract section 19).
  altText: ['Fishing boats moored at dusk, lights on the water.'],
  hashtags: ['harbour', 'dusk'],
  mentions: [OTHER_USER],
  tag: 'dusk',
  'Tag.name': 'dusk',
  'TrendingTag.name': 'dusk',
  authors: 17,
  'GET /tags.query': '#du',
  text: 'What a light!',
  note: 'Repeated links to the same shop.',
  query: 'ada',
  message: 'Done.',
  userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)',
  // Sessions and passwords.
  password: 'correct horse battery',
  currentPassword: 'correct horse battery',
  newPassword: 'staple paper clip',
  token: 'eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIwMUpROFo2VzRUNU4ySzdNOVAzUjVWOFgwQSJ9.c2lnbmF0dXJl',
  refreshToken: 'rt_6f9c2a1e8b7d4c3f9a0e1d2c3b4a5f6e',
  expiresIn: 900,
  // Web Push.
  publicKey: 'BCWm2rWgOWqp2bksm_mcaUSSaV1phuh4fhmjOU2vavdtUrlvrVHrl-sWKEgjd_gBXfO_LyG-WQScuJQbkvAyTTw',
  'PushSubscription.types': ['FOLLOW', 'COMMENT', 'REPLY'],
  // Media.
  size: 482133,
  'Upload.url': 'https://aperture-media.s3.amazonaws.com/uploads/01JQ94A5B6C7D8E9F0G1H2J3KM?X-Amz-Signature=3f2a',
  'Upload.fields': {},
  'Upload.headers': { 'Content-Type': 'image/jpeg', 'Content-Length': '482133' },
  'Upload.maxBytes': 15728640,
  'Media.status': 'ready',
  'Media.width': 1080,
  'Media.height': 720,
  'Media.url': 'https://cdn.example.com/media/01JQ94A5B6C7D8E9F0G1H2J3KM/q3H0xWbQ2c9fZkLr7vN1sA/original.jpg',
  'Media.variants': {
    1080: 'https://cdn.example.com/media/01JQ94A5B6C7D8E9F0G1H2J3KM/q3H0xWbQ2c9fZkLr7vN1sA/1080.jpg',
    640: 'https://cdn.example.com/media/01JQ94A5B6C7D8E9F0G1H2J3KM/q3H0xWbQ2c9fZkLr7vN1sA/640.jpg',
    320: 'https://cdn.example.com/media/01JQ94A5B6C7D8E9F0G1H2J3KM/q3H0xWbQ2c9fZkLr7vN1sA/320.jpg',
  },
  'Media.reason': null,
  // An open report: no resolution yet.
  'Report.action': OMIT,
  'Report.note': OMIT,
  'Report.resolvedBy': OMIT,
  'Report.resolvedAt': OMIT,
  isBlocked: false,
  'POST /users/block/{identifier}.isBlocked': true,
  'X-Trace-Id': TRACE,
  'X-Scenario-Id': 'onboarding',
  'X-Step-Id': 'step-3',
  // Counts that read better than their minimum.
  followersCount: 128,
  followingCount: 75,
  postsCount: 42,
  likesCount: 3,
  commentsCount: 1,
  repliesCount: 1,
  unreadCount: 2,
  'POST /notifications/read.unreadCount': 0,
  count: 1,
  reporters: 2,
  // Logs.
  traceId: TRACE,
  scenarioId: 'onboarding',
  stepId: 'step-3',
  simTimestamp: 1773500966535,
  'LogRecord.action.type': 'POST_CREATED',
  'LogRecord.action.description': 'Ada Lovelace created a post',
  'LogRecord.actor.id': USER,
  'LogRecord.payload': { caption: 'The harbour at dusk.' },
  'LogRecord.stateDiff': { before: {}, after: { caption: 'The harbour at dusk.' }, changes: ['caption'] },
  // Nullable fields that read best with a value (a reply, a page with a next one).
  'Notification.type': 'COMMENT',
  'Notification.post': POST,
  'Notification.comment': COMMENT,
  'ListPagination.nextCursor': CURSOR_EXAMPLES.list,
  'FeedPagination.nextCursor': CURSOR_EXAMPLES.feed,
  'CursorPagination.nextCursor': CURSOR_EXAMPLES.thread,
  // The error envelope's validation details.
  'Error.details': [{ path: 'limit', message: 'must be at most 50' }],
  'Error.message': 'The request is not valid.',
  'Error.code': 'VALIDATION_ERROR',
  'GET /openapi.json': { openapi: '3.1.0', info: { title: 'Aperture API', version: '0.1.0' }, paths: {} },
};

/**
 * Whole request bodies where the required fields alone are not a good request: none is
 * required (an edit names what it changes), or one of several must be given.
 */
export const BODY_EXAMPLES: Record<string, unknown> = {
  'POST /posts/create': { image: JSON.stringify([IMAGE_URL]), caption: 'The harbour at dusk.' },
  'POST /users/profile/edit': { bio: 'Notes on the analytical engine.', gender: 'female' },
  'POST /posts/edit/{post_id}': { caption: 'The harbour at dusk, #sailing with @ada.lovelace.', altText: ['Boats moored in a harbour at sunset.'] },
  'POST /comments/reply/{comment_id}': { text: 'Agreed!', replyTo: REPLY },
  'POST /reports': { targetType: 'post', targetId: POST, reason: 'spam', note: 'Repeated links to the same shop.' },
  'POST /moderation/reports/{report_id}/resolve': { action: 'remove', note: 'Spam.' },
  'POST /push/subscriptions': {
    endpoint: 'https://push.example.com/send/dGhlIGVuZHBvaW50',
    keys: { p256dh: 'BCWm2rWgOWqp2bksm_mcaUSSaV1phuh4fhmjOU2vavdtUrlvrVHrl-sWKEgjd_gBXfO_LyG-WQScuJQbkvAyTTw', auth: 'q2k3hJ7lA0Vd9Xb1sYw0aQ' },
    expirationTime: null,
    types: ['FOLLOW', 'COMMENT', 'REPLY'],
  },
};

/** The message of each error code, as lib/errors.ts and the domain errors word it. */
export const ERROR_MESSAGES: Record<string, string> = {
  VALIDATION_ERROR: 'The request is not valid.',
  INVALID_JSON: 'The request body is not valid JSON.',
  REPLY_DEPTH_EXCEEDED: 'Replies cannot be replied to. Reply to the top-level comment and name the reply in "replyTo".',
  SELF_ACTION: 'You cannot do this to yourself.',
  UNAUTHORIZED: 'A valid Bearer token is required.',
  INVALID_CREDENTIALS: 'The username, e-mail address or password is wrong.',
  FORBIDDEN: 'You are not allowed to do this.',
  FOLLOW_LIMIT_REACHED: 'You cannot follow more than 7,500 accounts.',
  PRIVATE_ACCOUNT: 'This account is private. Follow it and wait for approval to see its posts and lists.',
  NOT_FOUND: 'No such record.',
  USERNAME_TAKEN: 'This username is already taken.',
  EMAIL_TAKEN: 'An account with this e-mail address already exists.',
  REPORT_RESOLVED: 'This report is already resolved.',
  OWNER_UNKNOWN: 'The reported post no longer exists and this report does not say whose it was: dismiss it, or suspend the account from a report of the user.',
  IDEMPOTENCY_KEY_IN_USE: 'A request with this Idempotency-Key is still being answered. Retry in a moment.',
  IDEMPOTENCY_KEY_REUSED: 'This Idempotency-Key was already used for another request (another route, path or body). Send a new key.',
  PAYLOAD_TOO_LARGE: 'The request body is larger than 100 KiB.',
  UNSUPPORTED_MEDIA_TYPE: 'A request body must be sent with Content-Type: application/json.',
  TOO_MANY_ATTEMPTS: 'Too many failed logins. Try again later.',
  INTERNAL_ERROR: 'Something went wrong on our side. Please try again.',
};

/** The error envelope of a code, as lib/http answers it (details only for a validation error). */
export function errorExample(code: string): Schema {
  const message = ERROR_MESSAGES[code];
  if (!message) throw new Error(`lib/openapi/examples.ts has no message for error code ${code}`);
  return { success: false, message, code, ...(code === 'VALIDATION_ERROR' ? { details: BY_NAME['Error.details'] } : {}) };
}

export interface ExampleContext {
  /** Component schemas, for $ref. */
  components: Record<string, Schema>;
  /** Whose field this is: a component's name, or a route ("POST /reports"). */
  owner: string;
  /** The field's path in its owner ("" for the whole). */
  at?: string;
  /** Only the required properties of objects (a request), or all of them (an answer). */
  requiredOnly?: boolean;
}

const named = (key: string): { value: unknown } | undefined => (key in BY_NAME ? { value: BY_NAME[key] } : undefined);
/** A value or a list of values, not an object: a bare name ("post") names an id, never the object of that name. */
const isLeaf = (s: Schema): boolean => s.$ref === undefined && s.allOf === undefined && s.type !== 'object'
  && !(Array.isArray(s.type) && s.type.includes('object')) && (s.type !== 'array' || isLeaf((s.items ?? {}) as Schema));

/** An example of `schema`; throws, naming the field, where nothing here gives one. */
export function exampleOf(schema: Schema, ctx: ExampleContext): unknown {
  const at = ctx.at ?? '';
  const name = at.split('.').pop() ?? '';
  const hit = named(at ? `${ctx.owner}.${at}` : ctx.owner) ?? (name && isLeaf(schema) ? named(name) : undefined);
  if (hit) return hit.value;
  if (typeof schema.$ref === 'string') {
    const component = schema.$ref.replace('#/components/schemas/', '');
    const target = ctx.components[component];
    if (!target) throw new Error(`unknown $ref ${schema.$ref}`);
    return exampleOf(target, { ...ctx, owner: component, at: '' });
  }
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if ('example' in schema) return schema.example;
  if ('const' in schema) return schema.const;
  if (typeof schema.pattern === 'string' && schema.pattern in BY_PATTERN) return BY_PATTERN[schema.pattern];
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...(schema.allOf as Schema[]).map((part) => exampleOf(part, ctx) as object));
  }
  const options = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (options) return exampleOf(options.find((o) => o.type !== 'null') ?? options[0]!, ctx);
  const types = Array.isArray(schema.type) ? schema.type as string[] : [schema.type as string | undefined];
  const type = types.find((t) => t !== 'null') ?? types[0];
  const where = `${ctx.owner}${at ? `.${at}` : ''}`;
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = new Set((schema.required as string[] | undefined) ?? []);
      const out: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(properties)) {
        if (ctx.requiredOnly && !required.has(key)) continue;
        const value = exampleOf(property, { ...ctx, at: at ? `${at}.${key}` : key });
        if (value !== OMIT) out[key] = value;
      }
      return out;
    }
    case 'array':
      return schema.items ? [exampleOf(schema.items as Schema, { ...ctx, at: `${at}[]` })] : [];
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 0;
    case 'boolean':
      return true;
    case 'string':
      if (schema.format === 'date-time') return AT;
      if (schema.format === 'uri') return IMAGE_URL;
      throw new Error(`no example for the string ${where}: name one in lib/openapi/examples.ts`);
    default:
      throw new Error(`no example for ${where} (a schema without a type): name one in lib/openapi/examples.ts`);
  }
}
