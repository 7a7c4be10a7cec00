#!/usr/bin/env node
// `npm run openapi`: writes docs/openapi.json from the routes of the function manifests and
// the zod schemas of their handlers (lib/openapi/document.ts). The handlers are bundled
// with esbuild into one throw-away module and loaded on the local stage; nothing connects
// anywhere. `--check` exits 1 when docs/openapi.json is stale; `--stdout` prints instead.
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, routes } from './lib/manifests.mjs';

const OUT = join(ROOT, 'docs', 'openapi.json');

export async function generate() {
  process.env.STAGE = 'local'; // the handlers' modules read their config when loaded
  const list = routes();
  const files = [...new Set(list.map((r) => r.file))];
  // The document function embeds docs/openapi.json; it must exist for the bundle.
  if (!existsSync(OUT)) writeFileSync(OUT, '{}\n');
  const entry = [
    `import { buildDocument } from './lib/openapi/document.ts';`,
    ...files.map((f, i) => `import * as m${i} from './${f}';`),
    `const mods = { ${files.map((f, i) => `${JSON.stringify(f)}: m${i}`).join(', ')} };`,
    `export const routes = ${JSON.stringify(list)};`,
    `export const document = buildDocument(routes.map((r) => ({ ...r, spec: mods[r.file][r.exportName].spec })));`,
  ].join('\n');
  const dir = mkdtempSync(join(tmpdir(), 'aperture-openapi-'));
  try {
    const outfile = join(dir, 'openapi.cjs');
    await build({
      stdin: { contents: entry, resolveDir: ROOT, loader: 'ts', sourcefile: 'openapi-entry.ts' },
      bundle: true, platform: 'node', format: 'cjs', target: 'node22', outfile, logLevel: 'error',
    });
    return createRequire(import.meta.url)(outfile).document;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const serialize = (doc) => `${JSON.stringify(doc, null, 2)}\n`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = serialize(await generate());
  const args = process.argv.slice(2);
  if (args.includes('--stdout')) process.stdout.write(text);
  else if (args.includes('--check')) {
    const current = existsSync(OUT) ? readFileSync(OUT, 'utf8') : '';
    if (current !== text) {
      process.stderr.write('docs/openapi.json is stale: run `npm run openapi`\n');
      process.exit(1);
    }
  } else {
    writeFileSync(OUT, text);
    process.stdout.write(`wrote docs/openapi.json (${Object.keys(JSON.parse(text).paths).length} paths)\n`);
  }
}
