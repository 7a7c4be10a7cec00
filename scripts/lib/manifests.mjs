// The routes of the service as serverless.yml deploys them: the function manifests
// (functions/<area>/functions.json) that serverless.yml lists, each function with its
// handler file and its HTTP API routes. The OpenAPI generator and the tests read them here.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

// Also loaded by jest as CommonJS, where import.meta is empty.
export const ROOT = typeof __dirname === 'string' ? join(__dirname, '..', '..') + '/' : fileURLToPath(new URL('../..', import.meta.url));

/** Manifest paths (relative to the root) that serverless.yml references, in its order. */
export function referencedManifests(root = ROOT) {
  const yml = readFileSync(join(root, 'serverless.yml'), 'utf8');
  return [...yml.matchAll(/\$\{file\(\.\/(functions\/[\w-]+\/functions\.json)\)\}/g)].map((m) => m[1]);
}

/** Every functions/<area>/functions.json on disk. */
export function manifestsOnDisk(root = ROOT) {
  return readdirSync(join(root, 'functions'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(root, 'functions', d.name, 'functions.json')))
    .map((d) => `functions/${d.name}/functions.json`)
    .sort();
}

function routeOf(event) {
  const api = event.httpApi;
  if (api === undefined) return undefined;
  if (typeof api === 'string') {
    if (api === '*') return { method: '*', path: '*' };
    const [method, path] = api.split(' ');
    return { method: method.toUpperCase(), path };
  }
  return { method: String(api.method).toUpperCase(), path: api.path };
}

/** [{ name, file, exportName, method, path, key }] for every route of every referenced manifest. */
export function routes(root = ROOT) {
  const out = [];
  for (const manifest of referencedManifests(root)) {
    const fns = JSON.parse(readFileSync(join(root, manifest), 'utf8'));
    for (const [name, fn] of Object.entries(fns)) {
      const dot = fn.handler.lastIndexOf('.');
      const file = `${fn.handler.slice(0, dot)}.ts`;
      for (const event of fn.events ?? []) {
        const r = routeOf(event);
        if (r) out.push({ name, file, exportName: fn.handler.slice(dot + 1), ...r, key: `${r.method} ${r.path}` });
      }
    }
  }
  return out;
}

/** Function names of every referenced manifest. */
export function functionNames(root = ROOT) {
  return referencedManifests(root).flatMap((m) => Object.keys(JSON.parse(readFileSync(join(root, m), 'utf8'))));
}

/** The definition of one function (its functions.json entry), or undefined. */
export function functionDefinition(name, root = ROOT) {
  for (const m of referencedManifests(root)) {
    const fns = JSON.parse(readFileSync(join(root, m), 'utf8'));
    if (fns[name]) return fns[name];
  }
  return undefined;
}

/** Retries of an asynchronous invocation after the first attempt, as the deployed function declares them (Lambda's default: 2). */
export function asyncRetries(name, root = ROOT) {
  const retries = functionDefinition(name, root)?.maximumRetryAttempts;
  return typeof retries === 'number' ? retries : 2;
}

/** Every function of the referenced manifests, by name, as declared (handler, events...). */
export function functionDefinitions(root = ROOT) {
  return Object.assign({}, ...referencedManifests(root).map((m) => JSON.parse(readFileSync(join(root, m), 'utf8'))));
}
