// Bundling exactly as deployment does: the functions of functions/*/functions.json, each
// built by esbuild with serverless.yml's custom.esbuild settings, plus the baseline (one
// GetItem with the document client) and the lib bundle the loader uses.
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** serverless.yml custom.esbuild.plugins (the OpenAPI document embedded gzipped). */
export const PLUGINS_FILE = './resources/esbuild-plugins.js';
const pluginsOf = (root) => createRequire(join(root, 'package.json'))(PLUGINS_FILE);

/** serverless.yml custom.esbuild, as esbuild options (checked against the file by checkEsbuildSettings). */
export const ESBUILD = {
  bundle: true,
  minify: true,
  sourcemap: false,
  target: 'node22',
  platform: 'node',
  format: 'cjs',
  mainFields: ['module', 'main'],
};

/** Warns when serverless.yml no longer builds the way this file does. */
export function checkEsbuildSettings(root) {
  const yml = readFileSync(join(root, 'serverless.yml'), 'utf8');
  const block = /\n  esbuild:\n((?:    .*\n)+)/.exec(yml)?.[1] ?? '';
  const problems = [];
  for (const [k, v] of Object.entries({ ...ESBUILD, plugins: PLUGINS_FILE })) {
    const m = new RegExp(`^    ${k}: (.*)$`, 'm').exec(block);
    const want = Array.isArray(v) ? `[${v.join(', ')}]` : String(v);
    if (!m || m[1].trim() !== want) problems.push(`${k}: serverless.yml has ${m?.[1]?.trim() ?? 'nothing'}, bench uses ${want}`);
  }
  return problems;
}

/** Route key with parameter names blanked, so `{postId}` and `{post_id}` match. */
export const routeShape = (route) => route.replace(/\{[^}]+\}/g, '{}');
export const routeParams = (route) => [...route.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);

/** Every function of the functions manifests: name, source file, export, route. */
export function discoverFunctions(root) {
  const dir = join(root, 'functions');
  const out = [];
  for (const area of readdirSync(dir)) {
    const manifest = join(dir, area, 'functions.json');
    if (!existsSync(manifest)) continue;
    for (const [name, fn] of Object.entries(JSON.parse(readFileSync(manifest, 'utf8')))) {
      const dot = fn.handler.lastIndexOf('.');
      const base = fn.handler.slice(0, dot);
      const file = ['.ts', '.js', '.mjs'].map((e) => base + e).find((f) => existsSync(join(root, f)));
      for (const ev of fn.events ?? []) {
        // `httpApi: '*'` is the catch-all (docs/not-found), not a route of the contract.
        if (!ev.httpApi || typeof ev.httpApi !== 'object') continue;
        out.push({ name, file, exportName: fn.handler.slice(dot + 1), route: `${ev.httpApi.method.toUpperCase()} ${ev.httpApi.path}` });
      }
    }
  }
  return out;
}

/** Which part of a bundle an input file belongs to (the libraries of the design card apart). */
export function partOf(input) {
  const m = /^node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  if (!m) return 'app';
  const pkg = m[1];
  if (pkg === 'zod') return 'zod';
  if (pkg === 'jose') return 'jose';
  if (pkg.startsWith('@middy/')) return 'middy';
  return 'aws-sdk and the rest';
}

/** Builds one entry; `parts` is its bytes by partOf, from esbuild's metafile. */
export async function bundle(root, entry, outfile) {
  // serverless.yml custom.esbuild.exclude: native packages stay external (deployed, each is added
  // to the zips that need it: resources/sharp-package.js, argon2-package.js).
  const res = await build({ ...ESBUILD, external: ['sharp', '@node-rs/argon2'], plugins: pluginsOf(root), absWorkingDir: root, entryPoints: [join(root, entry)], outfile, logLevel: 'error', metafile: true });
  const parts = {};
  for (const out of Object.values(res.metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(out.inputs)) parts[partOf(input)] = (parts[partOf(input)] ?? 0) + bytesInOutput;
  }
  return { outfile, bytes: statSync(outfile).size, parts };
}
