// The commit-msg hook's check (.githooks/commit-msg): the message file git hands the hook,
// against the rule of scripts/lib/commit-message.mjs. Exits 1, which makes git refuse the
// commit, when the message breaks it.
import { readFileSync } from 'node:fs';
import { commitMessageProblems } from './lib/commit-message.mjs';

const problems = commitMessageProblems(readFileSync(process.argv[2], 'utf8'));
if (problems.length > 0) {
  for (const p of problems) process.stderr.write(`commit-msg: ${p}\n`);
  process.stderr.write('commit-msg: a subject of at most 72 characters in the imperative, a blank line, then the body (docs/CONTRIBUTING.md, "Commit messages")\n');
  process.exit(1);
}
