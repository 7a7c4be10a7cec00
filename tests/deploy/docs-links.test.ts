// The README and docs/ are self-contained: no link or path leads outside the repository
// (the team's shared folder included), every relative link names a file that exists, every
// section one page sends the reader to exists, every `npm run` script a page names exists,
// and docs/API.md names every operation.
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

/**
 * What a page names as its sections: its headings and the bold leads of its paragraphs
 * (`**Consistency**`), whitespace collapsed and code marks dropped.
 */
const norm = (s: string) => s.replace(/`/g, '').replace(/\s+/g, ' ').trim();
function sectionsOf(page: string): string[] {
  const text = readFileSync(join(ROOT, page), 'utf8');
  const headings = text.split('\n').filter((l) => /^#{1,6} /.test(l)).map((l) => l.replace(/^#+ /, ''));
  const leads = [...text.matchAll(/\*\*([^*]+)\*\*/g)].map((m) => m[1]!);
  return [...headings, ...leads].map(norm);
}
const PAGE_OF: Record<string, string> = {
  README: 'README.md', API: 'docs/API.md', ARCHITECTURE: 'docs/ARCHITECTURE.md', OPERATIONS: 'docs/OPERATIONS.md', PERFORMANCE: 'docs/PERFORMANCE.md',
  CONTRIBUTING: 'docs/CONTRIBUTING.md',
};

it.each(pages)('%s names only sections that exist when it sends the reader to one (PAGE, "Section")', (page) => {
  const text = readFileSync(join(ROOT, page), 'utf8');
  const missing: string[] = [];
  for (const [, name, quoted] of text.matchAll(/\b(?:docs\/)?(README|API|ARCHITECTURE|OPERATIONS|PERFORMANCE|CONTRIBUTING)(?:\.md)?(?:'s)?,?\s+"([^"]+)"/g)) {
    // A section is named by its title, or by the start of a longer one ("Cold starts" for
    // "Cold starts and bundles").
    const named = norm(quoted!);
    if (!sectionsOf(PAGE_OF[name!]!).some((title) => title.startsWith(named))) missing.push(`${name}, "${named}"`);
  }
  expect(missing).toEqual([]);
});

/** Every operation of the OpenAPI document, as `METHOD /path` with its parameters blanked (`{}`). */
function documentedOperations(): string[] {
  const doc = JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item)
    .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
    .map((m) => `${m.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`));
}

it('docs/API.md names every operation of the OpenAPI document, and the README counts them', () => {
  const text = readFileSync(join(ROOT, 'docs/API.md'), 'utf8');
  const named = new Set<string>();
  for (const [, method, path] of text.matchAll(/`(GET|POST|PUT|PATCH|DELETE) (\/[^`?\s]*)/g)) {
    // `POST /users/follow|unfollow/{identifier}` names one operation per alternative.
    let paths = [''];
    for (const segment of path!.split('/').slice(1)) paths = paths.flatMap((p) => segment.split('|').map((alt) => `${p}/${alt}`));
    for (const p of paths) named.add(`${method} ${p.replace(/\{[^}]+\}/g, '{}')}`);
  }
  const operations = documentedOperations();
  expect(operations.filter((op) => !named.has(op))).toEqual([]);
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  expect(/with every operation \((\d+)\)/.exec(readme)?.[1]).toBe(String(operations.length));
});

it.each(pages)('%s names only npm scripts that exist', (page) => {
  const text = readFileSync(join(ROOT, page), 'utf8');
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const named = [...text.matchAll(/\bnpm run (?:-s )?([a-z][\w:-]*)/g)].map((m) => m[1]!);
  expect(named.filter((name) => !(name in scripts))).toEqual([]);
});
