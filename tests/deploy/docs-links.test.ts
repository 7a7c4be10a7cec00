// The README and docs/ are self-contained: no link or path leads outside the repository
// (the team's shared folder included), and every relative link names a file that exists.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ROOT } from '../../scripts/lib/manifests.mjs';

const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`), 'clients/typescript/index.ts'];

it.each(pages)('%s sends no reader outside the repository', (page) => {
  const text = readFileSync(join(ROOT, page), 'utf8');
  expect(text).not.toMatch(/shared\/spec|seed-spec\.md|CONTRACT\.md/);
  const outside: string[] = [];
  for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
    if (/^(https?:|mailto:)/.test(target!)) continue;
    const file = resolve(dirname(join(ROOT, page)), target!);
    if (relative(ROOT, file).startsWith('..') || !existsSync(file)) outside.push(target!);
  }
  expect(outside).toEqual([]);
  // Paths written out in prose or code: none climbs out of the repository.
  expect(text.match(/(^|[\s`'"(])\.\.\/[\w.-]+/gm) ?? []).toEqual([]);
});
