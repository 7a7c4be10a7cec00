// The commit message rule (scripts/lib/commit-message.mjs), and the two places that apply it:
// the commit-msg hook in .githooks and CI's check of the commits after the base.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync, cpSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commitMessageProblems, SUBJECT_MAX } from '../../scripts/lib/commit-message.mjs';
import { ROOT } from '../../scripts/lib/manifests.mjs';

const subject = (n: number) => 'A'.repeat(n);

describe('commitMessageProblems', () => {
  it('takes a subject of at most 72 characters, alone or with a body after a blank line', () => {
    expect(SUBJECT_MAX).toBe(72);
    expect(commitMessageProblems(subject(72))).toEqual([]);
    expect(commitMessageProblems(`${subject(72)}\n`)).toEqual([]);
    expect(commitMessageProblems('Add the feed cursor\n\nWhat and why.\nThe figures.\n')).toEqual([]);
  });

  it('refuses a subject of 73 characters, counting characters rather than UTF-16 units', () => {
    expect(commitMessageProblems(subject(73))).toEqual(['the subject has 73 characters; at most 72']);
    expect(commitMessageProblems(`${'→'.repeat(72)}\n\nbody`)).toEqual([]);
    expect(commitMessageProblems('😀'.repeat(73))).toHaveLength(1);
  });

  it('refuses a body that starts on the second line, and an empty subject', () => {
    expect(commitMessageProblems('Add the feed cursor\nwhat and why')).toEqual([expect.stringMatching(/second line is not blank/)]);
    expect(commitMessageProblems('\n\nbody')).toEqual([expect.stringMatching(/subject .* is empty/)]);
    expect(commitMessageProblems('')).toEqual([expect.stringMatching(/subject .* is empty/)]);
  });

  it("drops git's comment lines first, as git does", () => {
    expect(commitMessageProblems('Add the feed cursor\n# Please enter the commit message\n# On branch x\n')).toEqual([]);
    expect(commitMessageProblems(`# ${subject(100)}\nAdd the feed cursor\n`)).toEqual([]);
  });
});

describe('the hook and the CI check in a repository of their own', () => {
  let repo: string;
  const git = (args: string[], env: Record<string, string> = {}) =>
    execFileSync('git', args, { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const commit = (message: string, env: Record<string, string> = {}) => {
    writeFileSync(join(repo, 'f'), message);
    git(['add', 'f']);
    git(['commit', '-q', '-m', message], env);
  };

  beforeEach(() => {
    repo = mkdtempSync(join(tmpdir(), 'commit-msg-'));
    mkdirSync(join(repo, 'scripts/lib'), { recursive: true });
    for (const f of ['scripts/commit-msg.mjs', 'scripts/check-commits.mjs', 'scripts/lib/commit-message.mjs', '.githooks/commit-msg']) cpSync(join(ROOT, f), join(repo, f));
    chmodSync(join(repo, '.githooks/commit-msg'), 0o755);
    git(['init', '-q']);
    git(['config', 'user.email', 'test@example.com']);
    git(['config', 'user.name', 'Test']);
  });
  afterEach(() => rmSync(repo, { recursive: true, force: true }));

  it('the commit-msg hook refuses a long subject and takes a good message', () => {
    git(['config', 'core.hooksPath', '.githooks']);
    expect(() => commit(subject(73))).toThrow(/at most 72/);
    expect(() => commit('Add a file\n\nBecause the test needs one.')).not.toThrow();
    expect(git(['log', '--format=%s'])).toBe('Add a file\n');
  });

  it('CI checks the commits newer than the base when the clone does not hold it, and fails on a long subject', () => {
    const check = () => execFileSync(process.execPath, ['scripts/check-commits.mjs'], { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    // Older than the base: history, not checked.
    commit(subject(200), { GIT_COMMITTER_DATE: '2026-11-01T00:00:00Z', GIT_AUTHOR_DATE: '2026-11-01T00:00:00Z' });
    commit('Add a file\n\nBecause the test needs one.');
    expect(check()).toMatch(/checking the 1 commits present that are newer/);
    commit(subject(73));
    expect(check).toThrow(/1 of 2 commits break the message rule/);
  });
});
