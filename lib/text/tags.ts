// Hashtags and mentions as contract section 19 defines them: pure functions of the text, shared
// by posts (captions) and comments (mentions). No I/O, no imports: every bundle that parses a
// caption carries only this.

/** Distinct hashtags a caption may carry. */
export const MAX_HASHTAGS = 30;
/** Distinct usernames a caption, comment or reply may mention. */
export const MAX_MENTIONS = 20;
/** A hashtag's run, counted as written (code points). */
export const MAX_TAG_LENGTH = 100;

// A character a tag's run holds: a letter, a decimal digit, a mark or `_`.
const TAG_CHAR = /[\p{L}\p{Nd}\p{M}_]/u;
const ALL_DIGITS = /^\p{Nd}+$/u;
// `#` and the run after it; the character before is checked by hand (no lookbehind over code points needed).
const HASH_RUN = /#([\p{L}\p{Nd}\p{M}_]*)/gu;
// `@` follows no letter, digit or `_`; the run is a-z, 0-9, `.` and `_` in any case.
const MENTION_BEFORE = /[\p{L}\p{Nd}_]/u;
const AT_RUN = /@([A-Za-z0-9._]*)/g;

/** A tag's name as stored and compared: NFKC, then Unicode lower case (no accent folding). */
export const normalizeTag = (name: string): string => name.normalize('NFKC').toLowerCase();

/** Whether a run (as written, without `#`) is a tag: 1-100 code points of the tag characters, not all digits. */
export function isTagRun(run: string): boolean {
  const chars = [...run];
  return chars.length >= 1 && chars.length <= MAX_TAG_LENGTH && chars.every((c) => TAG_CHAR.test(c)) && !ALL_DIGITS.test(run);
}

/** The last code point of `text` before index `i`, or '' at the start. */
function before(text: string, i: number): string {
  if (i === 0) return '';
  const low = text.charCodeAt(i - 1);
  if (low >= 0xdc00 && low <= 0xdfff && i >= 2) {
    const high = text.charCodeAt(i - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.slice(i - 2, i);
  }
  return text[i - 1]!;
}

/** The distinct normalized hashtags of a caption, in order of first use (any number: the caller checks MAX_HASHTAGS). */
export function hashtagsOf(caption: string): string[] {
  const out = new Set<string>();
  for (const m of caption.matchAll(HASH_RUN)) {
    const prev = before(caption, m.index);
    if (prev && TAG_CHAR.test(prev)) continue;
    const run = m[1]!;
    if (isTagRun(run)) out.add(normalizeTag(run));
  }
  return [...out];
}

/** The distinct lower-case usernames a text mentions, in order of first mention. */
export function mentionsOf(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(AT_RUN)) {
    const prev = before(text, m.index);
    if (prev && MENTION_BEFORE.test(prev)) continue;
    const name = m[1]!.replace(/\.+$/, '').toLowerCase();
    if (name) out.add(name);
  }
  return [...out];
}

/**
 * A tag search's query as a name prefix: a leading `#` dropped, then normalized. `''` when
 * nothing is left (a 400); `undefined` when it holds a character no tag holds (matches nothing).
 */
export function tagQuery(query: string): string | undefined {
  const q = query.startsWith('#') ? query.slice(1) : query;
  if (q === '') return '';
  return [...q].every((c) => TAG_CHAR.test(c)) ? normalizeTag(q) : undefined;
}
