// npm's prepare script: inside a git checkout of this repository, points git at the tracked
// hooks in .githooks (the commit-msg rule). Anywhere else (an unpacked archive, a Docker
// build without .git, the package installed inside another checkout) it does nothing, so
// `npm ci` never fails for want of git.
import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = realpathSync(fileURLToPath(new URL('..', import.meta.url)));
try {
  const top = realpathSync(execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  if (top === root) execFileSync('git', ['config', 'core.hooksPath', '.githooks'], { cwd: root, stdio: 'ignore' });
} catch {
  // No git, or not a checkout: no hooks to install.
}
