#!/usr/bin/env node
// CI's check of the commit messages (.ci/run runs it before `npm test`): every commit after
// BASE keeps the rule of scripts/lib/commit-message.mjs. Commits up to BASE are history,
// written before the rule, and are not checked.
//
// A shallow clone may not hold BASE: then the commits it holds that were committed after
// BASE are checked, and any older ones are not (they are BASE's ancestors or history). Outside
// a git checkout (an unpacked archive) there is nothing to check.
import { execFileSync } from 'node:child_process';
import { commitMessageProblems } from './lib/commit-message.mjs';

const BASE = 'ae40b471f5b0069e394b0ee5c6121ea8f81042fe';
/** BASE's committer time (epoch seconds), for a clone too shallow to hold BASE. */
const BASE_TIME = 1795827132;

const git = (...args) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const has = (rev) => { try { git('cat-file', '-e', `${rev}^{commit}`); return true; } catch { return false; } };

try { git('rev-parse', '--is-inside-work-tree'); } catch {
  console.log('check-commits: not a git checkout, nothing to check');
  process.exit(0);
}

let commits;
if (has(BASE)) {
  commits = git('rev-list', `${BASE}..HEAD`).split('\n').filter(Boolean);
} else {
  // Each commit present with its committer time; a shallow clone's log stops at its boundary.
  commits = git('log', '--format=%H %ct', 'HEAD').split('\n').filter(Boolean)
    .map((line) => line.split(' ')).filter(([, time]) => Number(time) > BASE_TIME).map(([sha]) => sha);
  console.log(`check-commits: ${BASE.slice(0, 7)} is not in this clone (shallow?); checking the ${commits.length} commits present that are newer`);
}

let bad = 0;
for (const sha of commits) {
  const problems = commitMessageProblems(git('log', '-1', '--format=%B', sha));
  if (problems.length === 0) continue;
  bad++;
  console.error(`${sha.slice(0, 7)} ${git('log', '-1', '--format=%s', sha).trim().slice(0, 80)}`);
  for (const p of problems) console.error(`  ${p}`);
}
if (bad > 0) {
  console.error(`check-commits: ${bad} of ${commits.length} commits break the message rule (docs/CONTRIBUTING.md, "Commit messages")`);
  process.exit(1);
}
console.log(`check-commits: ${commits.length} commits after ${BASE.slice(0, 7)}, every message keeps the rule`);
