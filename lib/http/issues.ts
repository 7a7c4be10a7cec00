// Turns zod issues into the contract's `details`: one entry per field, a sentence a
// client developer can act on. zod/mini carries no message catalogue (that keeps the
// bundles small), so the sentences are made here from the issue codes.
import type { core } from 'zod/mini';
import type { ErrorDetail } from '../errors';

type Issue = core.$ZodIssue;

function sentence(issue: Issue): string {
  if (issue.message && issue.message !== 'Invalid input') return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is required' : `must be ${article(issue.expected)}`;
    case 'too_small':
      if (issue.origin === 'string') return `must be at least ${issue.minimum} character${issue.minimum === 1 ? '' : 's'} long`;
      if (issue.origin === 'array') return `must hold at least ${issue.minimum} item${issue.minimum === 1 ? '' : 's'}`;
      return `must be at least ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${issue.maximum} characters long`;
      if (issue.origin === 'array') return `must hold at most ${issue.maximum} items`;
      return `must be at most ${issue.maximum}`;
    case 'invalid_format':
      return `must be a valid ${issue.format === 'regex' ? 'value' : issue.format}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'not_multiple_of':
      return 'must be a whole number';
    case 'invalid_union':
      return 'has an unexpected form';
    default:
      return 'is not valid';
  }
}

const article = (t: string) => (t === 'int' ? 'a whole number' : /^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`);

export function toDetails(issues: readonly Issue[], prefix?: string): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  // zod runs a length check on whatever has a length, even a value whose type already failed,
  // and reports it right after the type: a string where an array belongs also came back "must
  // be at most 20 characters long". A field of the wrong type is told that alone.
  let mistyped: string | undefined;
  for (const issue of issues) {
    const base = issue.path.map(String);
    const at = base.join();
    if (issue.code === 'invalid_type') mistyped = at;
    else if (at === mistyped) continue;
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys) out.push({ path: join(prefix, [...base, k]), message: 'is not a known field' });
    } else {
      out.push({ path: join(prefix, base), message: sentence(issue) });
    }
  }
  return out;
}

function join(prefix: string | undefined, parts: string[]): string {
  const p = parts.join('.');
  return p || prefix || 'body';
}
