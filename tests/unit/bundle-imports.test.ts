// Bundle size is a property of how modules are imported: `import { z } from 'zod/mini'`
// keeps zod's whole namespace object (every locale, JSON schema) alive in every bundle,
// 400 KB per function; `import * as z` lets esbuild drop what is unused. See
// docs/PERFORMANCE.md, "Bundles".
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(__dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
  });
}

describe('imports that decide bundle size', () => {
  const files = [...sources(join(root, 'functions')), ...sources(join(root, 'lib'))];

  it('import zod/mini as a namespace and never the full zod', () => {
    const bad = files
      .filter((f) => /import\s+(?!type\b)[^;]*\{[^}]*\bz\b[^}]*\}\s+from\s+'zod\/mini'|from\s+'zod'/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(root, f));
    expect(bad).toEqual([]);
  });

  it('no request path uses localeCompare, toLocale* or Intl: their first call loads ICU data (about 8 ms cold)', () => {
    // lib/openapi builds the document at build time, not in a function.
    const bad = files
      .filter((f) => !relative(root, f).startsWith('lib/openapi/'))
      .filter((f) => /\.localeCompare\(|\.toLocale\w*\(|\bIntl\./.test(readFileSync(f, 'utf8')))
      .map((f) => relative(root, f));
    expect(bad).toEqual([]);
  });

  it('no function sends with the global fetch: its first call loads undici (about 23 ms cold); lib/aws/signed.ts sends with the SDK\'s handler', () => {
    const bad = files
      .filter((f) => /(?<![.\w])fetch\(/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(root, f));
    expect(bad).toEqual([]);
  });

  it('lib/keys.ts exports each key builder on its own, for a namespace import', () => {
    // `import * as keys from '../keys'` then keeps only the builders a bundle calls; one
    // exported object of builders (the former `keys`) put all of them in every function.
    const source = readFileSync(join(root, 'lib/keys.ts'), 'utf8');
    expect(source).not.toMatch(/export const keys\b|export default/);
  });
});
