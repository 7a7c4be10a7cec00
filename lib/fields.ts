// Field rules shared by the endpoint schemas (contract section 4). Text is trimmed
// before it is checked, and lengths count Unicode code points (an emoji is one).
import * as z from 'zod/mini';
import { ID_PATTERN } from './ids';

/** Idempotency-Key: 1-255 visible ASCII characters (contract section 8). */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x21-\\x7E]{1,255}$';

const codePoints = (s: string) => [...s].length;
const INVISIBLE_ONLY = /^[\p{Cf}\s]*$/u;
// Lone surrogates cannot be stored as UTF-8; control characters have no place in text.
const WELL_FORMED = (s: string) => s.isWellFormed() && !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s);

// The OpenAPI document states every rule as JSON Schema, and JSON Schema has no "trim
// first": a rule on trimmed text is a pattern over the text as sent (ECMA-262 with the
// `u` flag, as JSON Schema validators run them; `\s` is exactly what String.prototype.trim
// removes). The server checks these same rules (tests/integration/openapi-fuzz.test.ts
// holds the two to each other).

/** Pattern: after trimming, min..max code points of anything (min >= 1). */
function trimmedLength(min: number, max: number): string {
  const inner = max === 1 ? '\\S' : min <= 1 ? `\\S(?:[\\s\\S]{0,${max - 2}}\\S)?` : `\\S[\\s\\S]{${min - 2},${max - 2}}\\S`;
  return `\\s*${min === 0 ? `(?:${inner})?` : inner}\\s*`;
}

/** Pattern of text(min, max): trimmed length, no control character, no lone surrogate, not only invisible characters. */
export function textPattern(min: number, max: number): string {
  const visible = min >= 1 ? '(?=[\\s\\S]*[^\\p{Cf}\\s])' : '';
  return `^(?![\\s\\S]*[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F\\uD800-\\uDFFF])${visible}${trimmedLength(Math.max(min, 0), max)}$`;
}

/** Trimmed text of min..max code points. */
export function text(min: number, max: number) {
  return z.string().check(
    z.trim(),
    z.refine(WELL_FORMED, 'must be valid text without control characters'),
    z.refine((s) => codePoints(s) >= min, min === 1 ? 'must not be empty' : `must be at least ${min} characters long`),
    // Invisible format characters alone (right-to-left marks, zero-width spaces) render as nothing.
    z.refine((s) => min === 0 || codePoints(s) < min || !INVISIBLE_ONLY.test(s), 'must not be empty'),
    z.refine((s) => codePoints(s) <= max, `must be at most ${max} characters long`),
    // The refinements above are invisible to JSON Schema; the pattern states them. minLength
    // holds for the text as sent too (trimming only shortens); maxLength would not.
    z.meta({
      ...(min > 0 ? { minLength: min } : {}),
      pattern: textPattern(min, max),
      description: `trimmed, then ${min}-${max} characters (Unicode code points); no control characters${min > 0 ? '; not only invisible characters' : ''}`,
    }),
  );
}

/** Any trimmed string of min..max code points (min >= 1), as a pattern over the string as sent. */
export const trimmedLengthPattern = (min: number, max: number) => `^${trimmedLength(min, max)}$`;

/**
 * An absolute http(s) URL as RFC 3986 writes it (every such URL also parses as a WHATWG URL):
 * scheme http or https (any case), a host name whose last label starts with a letter, or an
 * IPv4 address; an optional port up to 65535; a path, query and fragment of URI characters
 * with %-escapes. At most 2,048 characters.
 */
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const TOP = '[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
const PORT = '(?::(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4}))?';
const PCHARS = "(?:[A-Za-z0-9\\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*";
const QCHARS = "(?:[A-Za-z0-9\\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*";
const URL_CHARS = "[A-Za-z0-9\\-._~!$&'()*+,;=:@/?#%\\[\\]]";
/** One URL, no surrounding space; the lookahead bounds its length. */
export const HTTP_URL = `(?=${URL_CHARS}{1,2048}(?!${URL_CHARS}))[Hh][Tt][Tt][Pp][Ss]?://(?:(?:${LABEL}\\.)*${TOP}|${OCTET}(?:\\.${OCTET}){3})${PORT}(?:/${PCHARS})?(?:\\?${QCHARS})?(?:#${QCHARS})?`;
const HTTP_URL_RE = new RegExp(`^${HTTP_URL}$`, 'u');

/** An absolute http(s) URL of at most 2,048 characters (HTTP_URL). */
export function isHttpUrl(s: string): boolean {
  return HTTP_URL_RE.test(s);
}

/** A record id in a path: a ULID in any case, returned upper case. */
export const id = () =>
  z.pipe(
    z.string().check(z.regex(ID_PATTERN, 'must be an identifier'), z.meta({ pattern: '^[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26}$', description: 'an identifier (a ULID, any letter case)' })),
    z.transform((s) => s.toUpperCase()),
  );

/** A username or a user id, as the seed's {identifier} path parameters take. */
export const identifier = () =>
  z.string().check(z.minLength(1), z.maxLength(64), z.regex(/^[A-Za-z0-9._]+$/, 'must be a username or a user id'));

/**
 * An integer query parameter within bounds, with a default. Documented as the integer it
 * is (minimum, maximum); any run of decimal digits is read as that number.
 */
export function intParam(min: number, max: number, fallback: number) {
  return z.pipe(
    z._default(z.string().check(z.regex(/^\d+$/, `must be a whole number from ${min} to ${max}`)), String(fallback)),
    z.pipe(z.transform(Number), z.number().check(z.gte(min, `must be at least ${min}`), z.lte(max, `must be at most ${max}`))),
  ).check(z.meta({ type: 'integer', minimum: min, maximum: max, default: fallback, pattern: undefined }));
}

/** `limit` and opaque `cursor` of the user lists (contract section 5). */
export const userListQuery = () =>
  z.strictObject({
    limit: intParam(1, 100, 50),
    cursor: z.optional(listCursor()),
  });

/** The opaque cursor of the user lists (lib/graph/cursor.ts): a page position in a URL-safe form. */
// Its 17 digits are a date and time, `YYYYMMDDHHmmssSSS`: a month of 01-12, a day the month can
// have (29 February in any year: a position, not a claim that the day was), an hour of 00-23.
export const LIST_CURSOR_PATTERN = '^[0-9]{4}(?:(?:0[13578]|1[02])(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)(?:0[1-9]|[12][0-9]|30)|02(?:0[1-9]|1[0-9]|2[0-9]))(?:[01][0-9]|2[0-3])[0-5][0-9][0-5][0-9][0-9]{3}\\.[0-9A-HJKMNP-TV-Z]{26}$';
export const listCursor = () =>
  z.string().check(
    z.regex(new RegExp(LIST_CURSOR_PATTERN), 'is not a valid cursor: pass the nextCursor of a previous page'),
    z.meta({ description: 'opaque: the nextCursor of the previous page' }),
  );

/**
 * The cursor of the home feed (lib/feed/read.ts): the id of the last post of the page, a ULID
 * as the service writes it (upper case). Not the user lists' form: the feed is ordered by post id.
 */
export const FEED_CURSOR_PATTERN = '^[0-9A-HJKMNP-TV-Z]{26}$';
export const feedCursor = () =>
  z.string().check(
    z.regex(new RegExp(FEED_CURSOR_PATTERN), 'is not a valid cursor: pass the nextCursor of a previous page'),
    z.meta({ description: 'opaque: the nextCursor of the previous page' }),
  );
