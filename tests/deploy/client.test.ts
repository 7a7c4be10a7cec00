// The typed client of clients/typescript: its types are what openapi-typescript makes from
// docs/openapi.json now (run `npm run openapi` when this fails), so an app built on it and
// the API cannot drift apart unnoticed. (`npm test` type-checks the client and the HTTP
// tests that call the API through it.)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../scripts/lib/manifests.mjs';
import { apertureClient } from '../../clients/typescript';

it('clients/typescript/schema.d.ts is generated from the current document', () => {
  const fresh = execFileSync(process.execPath, [join(ROOT, 'scripts/openapi.mjs'), '--client-stdout'], {
    cwd: ROOT, encoding: 'utf8', env: { ...process.env, STAGE: 'local' }, maxBuffer: 64 * 1024 * 1024,
  });
  expect(fresh).toBe(readFileSync(join(ROOT, 'clients/typescript/schema.d.ts'), 'utf8'));
}, 60_000);

it('names every operation of the document', () => {
  const doc = JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8')) as { paths: Record<string, Record<string, { operationId: string }>> };
  const types = readFileSync(join(ROOT, 'clients/typescript/schema.d.ts'), 'utf8');
  const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId));
  expect(ids.filter((id) => !types.includes(`    ${id}: {`))).toEqual([]);
});

it('sends the token and the trace id it was given, and the caller\'s own headers win', async () => {
  const seen: Request[] = [];
  const fetch = async (request: Request) => { seen.push(request); return new Response('{"success":true,"user":{}}', { status: 200, headers: { 'Content-Type': 'application/json' } }); };
  let token = 'first';
  const api = apertureClient({ baseUrl: 'http://api.test', token: () => token, traceId: 'trace-1', fetch });
  await api.GET('/users/me');
  token = 'second';
  await api.GET('/users/{identifier}', { params: { path: { identifier: 'ada' } }, headers: { 'X-Trace-Id': 'mine' } });
  expect(seen.map((r) => [r.url, r.headers.get('authorization'), r.headers.get('x-trace-id')])).toEqual([
    ['http://api.test/users/me', 'Bearer first', 'trace-1'],
    ['http://api.test/users/ada', 'Bearer second', 'mine'],
  ]);
});
