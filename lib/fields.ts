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

/** Trimmed text of min..max code points. */
export function text(min: number, max: number) {
  return z.string().check(
    z.trim(),
    z.refine(WELL_FORMED, 'must be valid text without control characters'),
    z.refine((s) => codePoints(s) >= min, min === 1 ? 'must not be empty' : `must be at least ${min} characters long`),
    // Invisible format characters alone (right-to-left marks, zero-width spaces) render as nothing.
    z.refine((s) => min === 0 || codePoints(s) < min || !INVISIBLE_ONLY.test(s), 'must not be empty'),
    z.refine((s) => codePoints(s) <= max, `must be at most ${max} characters long`),
    // The refinements above are invisible to JSON Schema; state the bounds for the OpenAPI document.
    z.meta({ minLength: min, maxLength: max }),
  );
}

/** An absolute http(s) URL of at most 2,048 characters. */
export function isHttpUrl(s: string): boolean {
  if (s.length > 2048 || /\s/.test(s)) return false;
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

export const httpUrl = () =>
  z.string().check(
    z.trim(),
    z.refine(isHttpUrl, 'must be an absolute http or https URL of at most 2048 characters'),
    z.meta({ format: 'uri', maxLength: 2048, description: 'an absolute http or https URL' }),
  );

/** A record id in a path: a ULID in any case, returned upper case. */
export const id = () =>
  z.pipe(
    z.string().check(z.regex(ID_PATTERN, 'must be an identifier')),
    z.transform((s) => s.toUpperCase()),
  );

/** A username or a user id, as the seed's {identifier} path parameters take. */
export const identifier = () =>
  z.string().check(z.minLength(1), z.maxLength(64), z.regex(/^[A-Za-z0-9._]+$/, 'must be a username or a user id'));

/** An integer query parameter within bounds, with a default. */
export function intParam(min: number, max: number, fallback: number) {
  return z.pipe(
    z._default(z.string().check(z.regex(new RegExp(`^\\d{1,${String(max).length}}$`), `must be a whole number from ${min} to ${max}`)), String(fallback)),
    z.pipe(z.transform(Number), z.number().check(z.gte(min), z.lte(max))),
  );
}

/** `limit` and opaque `cursor` of the user lists (contract section 5). */
export const userListQuery = () =>
  z.strictObject({
    limit: intParam(1, 100, 50),
    cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  });
