// The wrapper Lambda starts every function's runtime through (resources/node-flags/node-flags,
// AWS_LAMBDA_EXEC_WRAPPER): it must start the interpreter it is given with its flags and pass
// every argument of the runtime through untouched; and the benchmark's cold starts read the
// same flags from it (scripts/bench/node-flags.mjs).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { WRAPPER, coldStartNodeArgs, deployedNodeFlags } = require('../../scripts/bench/node-flags.mjs');

describe('resources/node-flags/node-flags', () => {
  it('starts the interpreter it is given with the flags, and the runtime\'s arguments after them, untouched', () => {
    const flags: string[] = deployedNodeFlags();
    expect(flags).toContain('--no-lazy-feedback-allocation');
    // Lambda runs it directly (it is executable): the interpreter's path first, then its arguments.
    const out = execFileSync(WRAPPER, [process.execPath, '-e', 'console.log(JSON.stringify([process.execArgv, process.argv.slice(1)]))', 'one', 'two words', ''], { encoding: 'utf8' });
    const [execArgv, argv] = JSON.parse(out);
    expect(execArgv).toEqual([...flags, '-e', expect.any(String)]);
    expect(argv).toEqual(['one', 'two words', '']);
  });

  it('gives the runtime\'s exit status back (an interpreter that cannot start fails the start)', () => {
    expect(spawnSync(WRAPPER, [process.execPath, '-e', 'process.exit(3)']).status).toBe(3);
    expect(spawnSync(WRAPPER, [join(tmpdir(), 'no-such-interpreter')]).status).not.toBe(0);
  });

  it('the benchmark refuses a wrapper without its flags line rather than run without the flags', () => {
    const dir = mkdtempSync(join(tmpdir(), 'node-flags-'));
    writeFileSync(join(dir, 'wrapper'), '#!/bin/sh\nexec "$@"\n');
    expect(() => deployedNodeFlags(join(dir, 'wrapper'))).toThrow(/no flags=/);
  });

  it('the benchmark\'s cold starts take the deployed flags first, then the run\'s own options', () => {
    expect(coldStartNodeArgs(' --cpu-prof  --cpu-prof-dir=/tmp/p ')).toEqual([...deployedNodeFlags(), '--cpu-prof', '--cpu-prof-dir=/tmp/p']);
    expect(coldStartNodeArgs(undefined)).toEqual(deployedNodeFlags());
  });
});
