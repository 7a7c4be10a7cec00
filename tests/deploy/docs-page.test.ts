// GET /docs, the API reference page, invoked directly: the page, its own script, the vendor
// files (gzipped when the client takes gzip), and a 404 for anything else. The page is
// opened in a real browser in tests/http/offline.test.ts.
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiEvent } from '../support/invoke';
import { handler } from '../../functions/docs/page';
import { ROOT } from '../../scripts/lib/manifests.mjs';

const get = async (path: string, headers: Record<string, string> = {}) => {
  const asset = path.startsWith('/docs/') ? path.slice('/docs/'.length) : undefined;
  const event = apiEvent(asset === undefined ? 'GET /docs' : 'GET /docs/{asset}', { params: asset === undefined ? undefined : { asset }, headers });
  return (await handler(event));
};
const vendor = (name: string) => readFileSync(join(ROOT, 'node_modules/swagger-ui-dist', name), 'utf8');

describe('GET /docs', () => {
  it('serves the page, which loads only files of its own origin', async () => {
    const res = await get('/docs');
    expect(res.statusCode).toBe(200);
    expect(res.headers!['Content-Type']).toBe('text/html; charset=utf-8');
    const srcs = [...String(res.body).matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(srcs.sort()).toEqual(['/docs/init.js', '/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css']);
    expect(res.headers!['Content-Security-Policy']).toMatch(/script-src 'self'/);
  });

  it('starts Swagger UI on the document of the same origin', async () => {
    const res = await get('/docs/init.js');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("url: '/openapi.json'");
  });

  it('serves the vendor files from the package, gzipped to clients that take gzip, plain to others', async () => {
    for (const name of ['swagger-ui-bundle.js', 'swagger-ui.css']) {
      const zipped = await get(`/docs/${name}`, { 'accept-encoding': 'gzip, deflate, br' });
      expect(zipped).toMatchObject({ statusCode: 200, isBase64Encoded: true });
      expect(zipped.headers!['Content-Encoding']).toBe('gzip');
      expect(gunzipSync(Buffer.from(String(zipped.body), 'base64')).toString('utf8')).toBe(vendor(name));
      const plain = await get(`/docs/${name}`);
      expect(plain.statusCode).toBe(200);
      expect(plain.body).toBe(vendor(name));
      expect(plain.headers!['Content-Encoding']).toBeUndefined();
    }
  });

  it('answers 404 in the envelope for any other file', async () => {
    for (const name of ['index.html', 'swagger-ui-bundle.js.map', '..%2Fpackage.json', 'constructor', '__proto__']) {
      const res = await get(`/docs/${name}`);
      expect(res.statusCode).toBe(404);
      expect(JSON.parse(String(res.body))).toEqual({ success: false, message: expect.any(String), code: 'NOT_FOUND' });
      expect(res.headers!['X-Trace-Id']).toMatch(/^[0-9A-Z]{26}$/);
    }
  });

  it('carries X-Trace-Id on every answer, the caller\'s own when it sends one, and refuses a malformed trace header (400)', async () => {
    for (const path of ['/docs', '/docs/init.js', '/docs/swagger-ui.css', '/docs/nope.js']) {
      expect((await get(path, { 'X-Trace-Id': 'docs-trace.1' })).headers!['X-Trace-Id']).toBe('docs-trace.1');
    }
    const bad = await get('/docs', { 'x-trace-id': 'no spaces allowed' });
    expect(bad.statusCode).toBe(400);
    expect(JSON.parse(String(bad.body))).toMatchObject({ success: false, code: 'VALIDATION_ERROR', details: [{ path: 'x-trace-id' }] });
    expect(bad.headers!['X-Trace-Id']).toMatch(/^[0-9A-Z]{26}$/);
    // No shared cache may hand one client's trace id to another.
    for (const path of ['/docs', '/docs/init.js', '/docs/swagger-ui.css']) expect((await get(path)).headers!['Cache-Control']).toMatch(/^private, /);
  });

  it('refuses a query parameter it does not know (400, naming it), as every route does', async () => {
    const event = apiEvent('GET /docs', { query: { x: '1' } });
    const res = await handler(event);
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(String(res.body))).toMatchObject({ success: false, code: 'VALIDATION_ERROR', details: [{ path: 'x', message: 'is not a known query parameter' }] });
  });
});
