// The user fields of contract section 4.
import * as z from 'zod/mini';
import { httpUrl, text } from '../fields';
import { ID_PATTERN } from '../ids';

export const RESERVED_USERNAMES = new Set([
  'me', 'search', 'suggested', 'blocked', 'profile', 'edit', 'followers', 'following', 'follow',
  'unfollow', 'block', 'unblock', 'create', 'explore', 'user', 'admin',
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

export const username = () =>
  z.string().check(
    z.trim(),
    z.toLowerCase(),
    z.superRefine((u, ctx) => {
      const problem = usernameProblem(u);
      if (problem) ctx.issues.push({ code: 'custom', message: problem, input: u });
    }),
    z.meta({
      minLength: 1, maxLength: 30, pattern: '^[A-Za-z0-9._]+$',
      description: 'lower-cased; a-z 0-9 . _; no leading or trailing ".", no ".."; not reserved, not identifier-shaped',
    }),
  );

export const name = () => text(1, 64);
export const password = () => z.string().check(
  // A lone surrogate becomes U+FFFD when hashed, so two different passwords would match.
  z.refine((s) => s.isWellFormed(), 'must be valid text'),
  z.refine((s) => [...s].length >= 8, 'must be at least 8 characters long'),
  z.refine((s) => [...s].length <= 128, 'must be at most 128 characters long'),
  z.meta({ minLength: 8, maxLength: 128, format: 'password' }),
);
export const email = () =>
  z.string().check(z.trim(), z.toLowerCase(), z.maxLength(254), z.email('must be a valid e-mail address'));
export const bio = () => text(0, 150);
export const gender = () => text(0, 32);
/** A profile image: "" (none) or an absolute http(s) URL. */
export const profileImage = () => z.union([z.literal(''), httpUrl()]);
