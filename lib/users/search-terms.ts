// Terms of the user search index: the username, and every word of the name, lower-cased
// and accent-folded. A user's index items are derived from these, so a profile edit can
// compute exactly which items to delete and which to put.
export function fold(s: string): string {
  return s.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
}

export function nameWords(name: string): string[] {
  return [...new Set(fold(name).split(/[^\p{L}\p{N}._]+/u).filter(Boolean))].slice(0, 32);
}

export interface SearchTerm {
  kind: 'U' | 'N';
  term: string;
}

export function searchTerms(user: { username: string; name: string }): SearchTerm[] {
  return [{ kind: 'U', term: user.username }, ...nameWords(user.name).map((term) => ({ kind: 'N' as const, term }))];
}

export const termKey = (t: SearchTerm) => `${t.kind}:${t.term}`;
