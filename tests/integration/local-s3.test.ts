// Which upload rules the local S3 server (@20minutes/s3rver, scripts/lib/local-s3.mjs)
// enforces by itself, with the presigned PUT that POST /media/uploads hands out
// (lib/media/storage.ts presignUpload: Content-Type and Content-Length signed, 15 minutes):
// a wrong type, a wrong size and an expired URL are refused, because the server checks
// the SigV4 signature (signed headers and expiry) like S3. What s3rver does not enforce on its
// own, a write with no signature at all (the bucket is private in AWS) and a presigned POST's
// policy (which it ignores), scripts/lib/local-s3.mjs refuses in front of it: every unsigned
// write, and every POST upload (the API hands out presigned PUTs only). Like the deployed
// bucket, it lists nothing and serves nothing but processed images to anonymous readers.
// Processing checks size and type again in any case (tests/integration/media-processing.test.ts).
import { request } from 'node:http';
import { newMediaSecret, presignUpload } from '../../lib/media/storage';
import { putObject } from '../../lib/media/s3';
import { newId } from '../../lib/ids';
import { hasS3Event, objectUrl, storedObject, waitForS3Event } from '../support/media';

const bytes = (n: number) => Buffer.alloc(n, 7);
const put = (url: string, body: Buffer, contentType: string) => fetch(url, { method: 'PUT', body, headers: { 'Content-Type': contentType } });
const exists = async (key: string) => (await storedObject(key)) !== undefined;

/** A request sent with its path exactly as given (fetch would resolve dot segments) and an optional Host header. */
function raw(method: string, path: string, host?: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(process.env.S3_ENDPOINT!);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, method, path, headers: host ? { host } : {} }, (res) => {
      let body = '';
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

it('stores a presigned PUT of the signed type and size, and emits its ObjectCreated event', async () => {
  const id = newId();
  const url = await presignUpload(id, 'image/png', 100, 900);
  expect(url.startsWith(objectUrl(`uploads/${id}`))).toBe(true);
  const res = await put(url, bytes(100), 'image/png');
  expect(res.status).toBe(200);
  const event = await waitForS3Event(`uploads/${id}`);
  expect(event.Records[0]!.eventName).toBe('ObjectCreated:Put');
  expect(event.Records[0]!.s3.bucket.name).toBe(process.env.MEDIA_BUCKET);
  expect(event.Records[0]!.s3.object.size).toBe(100);
});

it('refuses another content type (the signed header differs)', async () => {
  const id = newId();
  const res = await put(await presignUpload(id, 'image/png', 100, 900), bytes(100), 'image/jpeg');
  expect(res.status).toBe(403);
  expect(await res.text()).toContain('SignatureDoesNotMatch');
  expect(await exists(`uploads/${id}`)).toBe(false);
  expect(hasS3Event(`uploads/${id}`)).toBe(false);
});

it('refuses a larger or smaller body than the signed size', async () => {
  for (const size of [101, 99]) {
    const id = newId();
    const res = await put(await presignUpload(id, 'image/png', 100, 900), bytes(size), 'image/png');
    expect(res.status).toBe(403);
    expect(await exists(`uploads/${id}`)).toBe(false);
  }
});

it('refuses an expired URL', async () => {
  const id = newId();
  // Signed 16 minutes ago for 15 minutes: expired a minute ago (no waiting in the test).
  const url = await presignUpload(id, 'image/png', 100, 900, new Date(Date.now() - 16 * 60_000));
  const res = await put(url, bytes(100), 'image/png');
  expect(res.status).toBe(403);
  expect(await res.text()).toContain('expired');
  expect(await exists(`uploads/${id}`)).toBe(false);
});

it('refuses a write without a signature (403 AccessDenied) and stores nothing: a PUT over a stored object, a new key, a DELETE, a POST form', async () => {
  // An object stored with a presigned PUT, which an unsigned PUT must not replace.
  const id = newId();
  expect((await put(await presignUpload(id, 'image/png', 100, 900), bytes(100), 'image/png')).status).toBe(200);
  const replaced = await put(objectUrl(`uploads/${id}`), bytes(10), 'image/png');
  expect(replaced.status).toBe(403);
  expect(await replaced.text()).toContain('AccessDenied');
  expect(await storedObject(`uploads/${id}`)).toEqual(bytes(100));
  const unsigned = newId();
  expect((await put(objectUrl(`uploads/${unsigned}`), bytes(10), 'text/plain')).status).toBe(403);
  expect(await exists(`uploads/${unsigned}`)).toBe(false);
  expect((await fetch(objectUrl(`uploads/${id}`), { method: 'DELETE' })).status).toBe(403);
  expect(await exists(`uploads/${id}`)).toBe(true);

  // A POST policy allowing 1-10 bytes of image/png, already expired, which s3rver would ignore.
  const posted = newId();
  const policy = Buffer.from(JSON.stringify({
    expiration: new Date(Date.now() - 60_000).toISOString(),
    conditions: [{ bucket: process.env.MEDIA_BUCKET }, ['content-length-range', 1, 10], { 'Content-Type': 'image/png' }],
  })).toString('base64');
  const form = new FormData();
  form.append('key', `uploads/${posted}`);
  form.append('Content-Type', 'image/png');
  form.append('policy', policy);
  form.append('file', new Blob([bytes(1000)], { type: 'text/plain' }));
  const res = await fetch(`${process.env.S3_ENDPOINT}/${process.env.MEDIA_BUCKET}`, { method: 'POST', body: form });
  expect(res.status).toBe(403);
  expect(await exists(`uploads/${posted}`)).toBe(false);
});

it('refuses a write whose only "signature" is a parameter s3rver does not check', async () => {
  const id = newId();
  for (const query of ['x-amz-signature=1', 'X-Amz-Signature=1', 'x-amz-algorithm=AWS4-HMAC-SHA256']) {
    const res = await put(`${objectUrl(`uploads/${id}`)}?${query}`, bytes(10), 'image/png');
    expect([query, res.status]).toEqual([query, 403]);
  }
  expect(await exists(`uploads/${id}`)).toBe(false);
  expect(hasS3Event(`uploads/${id}`)).toBe(false);
});

it('lists nothing and serves no raw upload to anonymous readers (403 AccessDenied, as the private bucket answers)', async () => {
  const id = newId();
  const html = Buffer.from('<html><script>alert(document.cookie)</script></html>');
  const url = await presignUpload(id, 'image/png', html.length, 900);
  expect((await put(url, html, 'image/png')).status).toBe(200);
  const bucket = process.env.MEDIA_BUCKET!;

  const refused = [
    // Listings: the bucket (V1 and V2, with a prefix), every bucket, and the bucket named by its Host header.
    await raw('GET', `/${bucket}`),
    await raw('GET', `/${bucket}/?list-type=2&prefix=uploads/`),
    await raw('GET', '/'),
    await raw('GET', '/', bucket),
    // The raw upload itself, its metadata, and the same key spelled otherwise.
    await raw('GET', `/${bucket}/uploads/${id}`),
    await raw('HEAD', `/${bucket}/uploads/${id}`),
    await raw('GET', `/uploads/${id}`, bucket),
    await raw('GET', `/${bucket}/uploads/${id}?tagging`),
    await raw('GET', `/${bucket}/media/../uploads/${id}`),
    await raw('GET', `/${bucket}/media/${id}/../../uploads/${id}`),
    await raw('GET', `/${bucket}/media%2F..%2Fuploads%2F${id}`),
    await raw('GET', `/${bucket}/%75ploads/${id}`),
  ];
  for (const res of refused) {
    expect(res.status).toBe(403);
    expect(res.body).not.toContain('script');
    expect(res.body).not.toContain(id);
  }
  expect(refused.filter((r) => r.body).every((r) => r.body.includes('<Code>AccessDenied</Code>'))).toBe(true);
  // Processing reads it with a signature.
  expect(await storedObject(`uploads/${id}`)).toEqual(html);
});

it('serves processed images to anonymous readers, without a query', async () => {
  const id = newId();
  const secret = newMediaSecret();
  const key = `media/${id}/${secret}/original.jpg`;
  await putObject(key, bytes(50), { 'content-type': 'image/jpeg' });
  const got = await fetch(objectUrl(key));
  expect(got.status).toBe(200);
  expect(Buffer.from(await got.arrayBuffer())).toEqual(bytes(50));
  expect((await fetch(objectUrl(key), { method: 'HEAD' })).status).toBe(200);
  expect((await fetch(objectUrl(`media/${newId()}/${secret}/320.png`))).status).toBe(404);
  // Not without the secret (contract section 12: it is what makes the URL unguessable).
  await putObject(`media/${id}/original.jpg`, bytes(50), { 'content-type': 'image/jpeg' });
  expect((await fetch(objectUrl(`media/${id}/original.jpg`))).status).toBe(403);
  // The CDN forwards no query: no subresource, no response-header override, for anonymous readers.
  expect((await fetch(`${objectUrl(key)}?tagging`)).status).toBe(403);
  expect((await fetch(`${objectUrl(key)}?response-content-type=text/html`)).status).toBe(403);
  // And no other key of the bucket: only the names processing writes.
  await putObject(`media/${id}/${secret}/page.html`, Buffer.from('<html></html>'), { 'content-type': 'text/html' });
  expect((await fetch(objectUrl(`media/${id}/${secret}/page.html`))).status).toBe(403);
});
