// The user fields of contract section 4.
import * as z from 'zod/mini';
import { HTTP_URL, isHttpUrl, text } from '../fields';
import { ID_PATTERN } from '../ids';

export const RESERVED_USERNAMES = new Set([
  'me', 'search', 'suggested', 'blocked', 'profile', 'edit', 'followers', 'following', 'follow',
  'unfollow', 'block', 'unblock', 'create', 'explore', 'user', 'admin', 'muted',
]);

export function usernameProblem(u: string): string | undefined {
  if (u.length < 1 || u.length > 30) return 'must be 1-30 characters long';
  if (!/^[a-z0-9._]+$/.test(u)) return 'may hold only a-z, 0-9, "." and "_"';
  if (u.startsWith('.') || u.endsWith('.')) return 'must not start or end with "."';
  if (u.includes('..')) return 'must not contain ".."';
  if (RESERVED_USERNAMES.has(u)) return 'is reserved';
  if (ID_PATTERN.test(u)) return 'must not have the form of an identifier';
  return undefined;
}

// The username rules as one pattern over the name as sent (trimmed, any letter case).
const anyCase = (word: string) => word.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`);
export const USERNAME_PATTERN = '^\\s*'
  + `(?!(?:${[...RESERVED_USERNAMES].map(anyCase).join('|')})\\s*$)`
  + '(?![0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26}\\s*$)'
  + '(?!\\.)(?![A-Za-z0-9._]*\\.\\.)(?=[A-Za-z0-9._]{1,30}\\s*$)'
  + '[A-Za-z0-9._]*[A-Za-z0-9_]\\s*$';

export const username = () =>
  z.string().check(
    z.trim(),
    z.superRefine((u, ctx) => {
      // Checked before lower-casing: the Kelvin sign (U+212A) lower-cases to an ASCII "k".
      const problem = /^[\x00-\x7f]*$/.test(u) ? usernameProblem(u.toLowerCase()) : 'may hold only a-z, 0-9, "." and "_"';
      if (problem) ctx.issues.push({ code: 'custom', message: problem, input: u });
    }),
    z.toLowerCase(),
    z.meta({
      minLength: 1, pattern: USERNAME_PATTERN,
      description: 'trimmed and lower-cased; 1-30 characters of a-z 0-9 . _; no leading or trailing ".", no ".."; not a reserved word, not of the form of an identifier',
    }),
  );

export const name = () => text(1, 64);
export const password = () => z.string().check(
  // A lone surrogate becomes U+FFFD when hashed, so two different passwords would match.
  z.refine((s) => s.isWellFormed(), 'must be valid text'),
  z.refine((s) => [...s].length >= 8, 'must be at least 8 characters long'),
  z.refine((s) => [...s].length <= 128, 'must be at most 128 characters long'),
  z.meta({ minLength: 8, maxLength: 128, format: 'password', pattern: '^[^\\uD800-\\uDFFF]*$' }),
);
// zod's own e-mail rule (its `regexes.email`; tests/unit/fields.test.ts checks they are the
// same), written out here: reaching it through `z.regexes` keeps every one of zod's regexes in
// the bundle (6.5 KB of the profile edit's and registration's, against their bundle budget).
export const EMAIL_REGEX = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;
// On the trimmed address; the length bound as a lookahead.
const EMAIL = EMAIL_REGEX.source.replace(/^\^|\$$/g, '');
export const EMAIL_PATTERN = `^\\s*(?=\\S{1,254}\\s*$)(?:${EMAIL})\\s*$`;
export const email = () =>
  z.string().check(
    z.trim(), z.maxLength(254), z.regex(EMAIL_REGEX, 'must be a valid e-mail address'), z.toLowerCase(),
    z.meta({ format: 'email', pattern: EMAIL_PATTERN, maxLength: undefined, description: 'trimmed; at most 254 characters; stored lower-cased' }),
  );
export const bio = () => text(0, 150);
export const gender = () => text(0, 32);
/** A profile image: "" (none) or an absolute http(s) URL, trimmed first (spaces alone are ""). */
export const profileImage = () =>
  z.string().check(
    z.trim(),
    z.refine((s) => s === '' || isHttpUrl(s), 'must be "" or an absolute http or https URL of at most 2048 characters'),
    z.meta({ pattern: `^\\s*(?:${HTTP_URL})?\\s*$`, description: '"" (none) or an absolute http or https URL of at most 2048 characters (surrounding spaces are trimmed)' }),
  );
