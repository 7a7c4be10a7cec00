// The V8 flags a deployed function's runtime starts with: the `flags='...'` line of the
// wrapper Lambda starts it through (resources/node-flags/node-flags, AWS_LAMBDA_EXEC_WRAPPER in
// serverless.yml). The benchmark starts its cold-start processes, the baseline's included, with
// the same flags (Node directly: the wrapper's own /bin/sh start is not measured).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const WRAPPER = join(dirname(fileURLToPath(import.meta.url)), '../../resources/node-flags/node-flags');

/** The wrapper's flags, one string each; throws when the script has no `flags='...'` line. */
export function deployedNodeFlags(file = WRAPPER) {
  const line = readFileSync(file, 'utf8').split('\n').find((l) => /^flags='[^']*'$/.test(l));
  if (!line) throw new Error(`${file}: no flags='...' line`);
  return line.slice("flags='".length, -1).split(' ').filter(Boolean);
}

/** The Node options of a cold-start process: the deployed flags, then a run's own (BENCH_INIT_NODE_ARGS, space-separated). */
export function coldStartNodeArgs(extra = '', file = WRAPPER) {
  return [...deployedNodeFlags(file), ...extra.split(' ').filter(Boolean)];
}
