// The one rule for commit messages, shared by the commit-msg hook (.githooks/commit-msg) and
// the CI check (scripts/check-commits.mjs): a subject of at most 72 characters, then, when
// there is a body, a blank line before it. A short subject keeps `git log --oneline` and
// every tool that shows one line per commit readable; the body carries the what, why and
// figures (docs/CONTRIBUTING.md, "Commit messages").

export const SUBJECT_MAX = 72;

/**
 * The problems of one commit message, as git stores it or as the commit-msg hook receives it
 * (lines starting with `#` are git's comments and are dropped first, as git drops them).
 * An empty list means the message keeps the rule.
 */
export function commitMessageProblems(message) {
  const lines = message.replace(/\r\n/g, '\n').split('\n').filter((line) => !line.startsWith('#'));
  while (lines.length > 0 && lines[lines.length - 1].trim() === '') lines.pop();
  const problems = [];
  const subject = lines[0] ?? '';
  if (subject.trim() === '') problems.push('the subject (first line) is empty');
  // Characters as a reader counts them, not UTF-16 units: "→" is one.
  const length = [...subject].length;
  if (length > SUBJECT_MAX) problems.push(`the subject has ${length} characters; at most ${SUBJECT_MAX}`);
  if (lines.length > 1 && lines[1].trim() !== '') problems.push('the second line is not blank: put a blank line between the subject and the body');
  return problems;
}
