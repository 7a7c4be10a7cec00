// The local S3-compatible storage of `npm start` and the tests: @20minutes/s3rver (a
// maintained fork of s3rver, in-process, files in a temporary directory), bound to
// 127.0.0.1 only. It verifies SigV4 signatures of presigned URLs (signed headers, expiry),
// which is what makes a presigned PUT with signed Content-Type and Content-Length enforce
// type, size and expiry here as in S3. On its own it would also take writes without any
// signature and a presigned POST whatever its policy says; signedWritesOnly below refuses both,
// as the deployed bucket does (tests/integration/local-s3.test.ts proves each of these).
// Every stored object emits an S3 event in the shape S3 sends to Lambda (`onEvent`).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from '@20minutes/s3rver';
import { freePort } from './local-dynamodb.mjs';

export const LOCAL_MEDIA_BUCKET = 'aperture-media-local';
export const LOCAL_S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

// Browser apps upload straight to the bucket (the deployed bucket has the same rule, resources/media.json).
const CORS = `<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>PUT</AllowedMethod><AllowedMethod>GET</AllowedMethod>
<AllowedHeader>Content-Type</AllowedHeader><MaxAgeSeconds>3000</MaxAgeSeconds></CORSRule></CORSConfiguration>`;

/**
 * S3 refuses a write that carries no signature (the deployed bucket grants no anonymous
 * access), and s3rver takes it: without this, any local client could replace a stored image
 * with bytes that were never re-encoded. A PUT, POST or DELETE must carry an Authorization
 * header or a presigned URL's X-Amz-Signature, which s3rver then verifies. A presigned POST
 * (its signature in the form) is refused too: s3rver ignores its policy, and the API hands out
 * presigned PUTs only. Reads stay open, as the served images are.
 */
async function signedWritesOnly(ctx, next) {
  const write = ctx.method === 'PUT' || ctx.method === 'POST' || ctx.method === 'DELETE';
  const signed = Boolean(ctx.get('authorization')) || Object.keys(ctx.query).some((k) => k.toLowerCase() === 'x-amz-signature');
  if (write && !signed) {
    ctx.status = 403;
    ctx.type = 'application/xml';
    ctx.body = '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Access Denied: a write must be signed</Message></Error>';
    return;
  }
  await next();
}

/**
 * Starts the server on a free loopback port (or `port`), with the media bucket.
 * `onEvent(event)` receives each S3 event (ObjectCreated:Put, ...) as S3 would send it to Lambda.
 */
export async function startLocalS3({ port, bucket = LOCAL_MEDIA_BUCKET, directory, onEvent } = {}) {
  port ??= await freePort();
  const dir = directory ?? mkdtempSync(join(tmpdir(), 'aperture-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: bucket, configs: [CORS] }],
  });
  // First of the server's middleware (Koa composes them when it starts listening).
  server.middleware.unshift(signedWritesOnly);
  if (onEvent) server.on('event', (event) => onEvent(event));
  await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await server.close();
    if (!directory) rmSync(dir, { recursive: true, force: true });
  };
  return { endpoint, port, bucket, stop };
}
