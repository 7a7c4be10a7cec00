// The OpenAPI document against the routes serverless.yml deploys, and against its generator.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, manifestsOnDisk, referencedManifests, routes } from '../../scripts/lib/manifests.mjs';
import { isOperation } from '../../lib/openapi/document';
import { call } from '../support/invoke';
import { handler as openapi } from '../../functions/docs/openapi';

type Doc = { paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown>; requestBody?: unknown; parameters: { name?: string; in?: string }[] }>> };
const doc = JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8')) as Doc;
const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)).sort();
const deployed = routes().filter((r) => isOperation(r.path));

describe('docs/openapi.json', () => {
  it('serverless.yml references every function manifest on disk', () => {
    expect([...referencedManifests()].sort()).toEqual(manifestsOnDisk());
  });

  it('documents exactly the routes of the manifests', () => {
    expect(operations).toEqual(deployed.map((r) => r.key).sort());
  });

  it('is what the generator makes now (run `npm run openapi` when this fails)', () => {
    const fresh = execFileSync(process.execPath, [join(ROOT, 'scripts/openapi.mjs'), '--stdout'], {
      cwd: ROOT, encoding: 'utf8', env: { ...process.env, STAGE: 'local' }, maxBuffer: 64 * 1024 * 1024,
    });
    expect(JSON.parse(fresh)).toEqual(doc);
    expect(fresh).toBe(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8'));
  });

  it.each(deployed.map((r) => [r.key, r] as const))('%s: parameters, errors and security follow its spec', async (_key, route) => {
    const mod = require(join(ROOT, route.file)) as Record<string, { spec: { auth?: boolean; body?: unknown; params?: unknown } }>;
    const spec = mod[route.exportName]!.spec;
    const op = doc.paths[route.path]![route.method.toLowerCase()]!;
    const statuses = Object.keys(op.responses);
    expect(statuses).toEqual(expect.arrayContaining(['400', '500']));
    expect(statuses.some((s) => s === '200' || s === '201' || s === '202')).toBe(true);
    if (spec.auth === false) expect(op.security).toEqual([]);
    else {
      expect(op.security).toBeUndefined(); // the document's default: bearerAuth
      expect(statuses).toContain('401');
    }
    // A body sent to any route is checked (413, 415, INVALID_JSON), whether or not it takes one.
    expect(statuses).toEqual(expect.arrayContaining(['413', '415']));
    if (spec.body) expect(op.requestBody).toBeDefined();
    else expect(op.requestBody).toBeUndefined();
    const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    expect(op.parameters.filter((p) => p.in === 'path').map((p) => p.name).sort()).toEqual(pathParams.sort());
    if (pathParams.length) expect(statuses).toContain('404');
  });
});

describe('GET /openapi.json', () => {
  it('serves the document without a token, as is (no envelope)', async () => {
    const res = await call(openapi, 'GET /openapi.json');
    expect(res.status).toBe(200);
    expect({ ...res.body, servers: undefined }).toEqual({ ...doc, servers: undefined });
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.headers['x-trace-id']).toBeTruthy();
  });

  it('names the server it was fetched from (the stage\'s domain, or the local host and port)', async () => {
    expect((await call(openapi, 'GET /openapi.json')).body.servers).toEqual([{ url: 'https://localhost', description: expect.any(String) }]);
    const local = await call(openapi, 'GET /openapi.json', { headers: { host: 'localhost:3456', 'x-forwarded-proto': 'http' } });
    expect(local.body.servers).toEqual([{ url: 'http://localhost:3456', description: expect.any(String) }]);
    // A host header that names no plausible host: the document's own entry.
    const odd = await call(openapi, 'GET /openapi.json', { headers: { host: 'evil.example/<x>' } });
    expect(odd.body.servers).toEqual((doc as unknown as { servers: unknown }).servers);
  });
});
