// The local S3-compatible storage of `npm start` and the tests: @20minutes/s3rver (a
// maintained fork of s3rver, in-process, files in a temporary directory), bound to
// 127.0.0.1 only. It verifies SigV4 signatures of presigned URLs (signed headers, expiry),
// which is what makes a presigned PUT with signed Content-Type and Content-Length enforce
// type, size and expiry here as in S3. On its own it would also take writes without any
// signature and a presigned POST whatever its policy says, list the bucket and serve raw
// uploads to anyone; privateBucket below refuses all of it, as the deployed bucket does
// (tests/integration/local-s3.test.ts proves each of these).
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
 * The access the deployed bucket grants (resources/media.yml), enforced in front of s3rver,
 * which on its own answers every request without a signature: it would list the bucket and
 * serve any raw upload as it was sent (its EXIF, an HTML payload) to anyone who asks.
 *
 * A signed request is one s3rver verifies (the same three mechanisms it looks for: an
 * Authorization header, a V2 `Signature` or a V4 `X-Amz-Algorithm` query parameter; it
 * refuses a wrong signature, an expired URL, another signed header itself). Any other
 * request is anonymous, and may do only what the CDN does in AWS: GET or HEAD a processed
 * image (`media/<id>/<secret>/<name>.<ext>`, lib/media/storage.ts variantKey) without a query (the CDN
 * forwards none: no subresource such as ?tagging, no response-header override), and send a
 * CORS preflight. Everything else is 403 AccessDenied, as S3 answers for a private bucket: a
 * listing of the bucket or of the buckets, a read of `uploads/`, any write (a presigned POST
 * too: its signature is in the form, where s3rver does not check its policy, and the API hands
 * out presigned PUTs only).
 *
 * It runs after s3rver's virtual-host rewrite, so `ctx.path` is `/<bucket>/<key>` however the
 * bucket was named (path or Host header), and the key is matched on the raw path: a key
 * spelled with escapes or dot segments (which s3rver's file store would resolve) matches no
 * processed image and is refused.
 */
export function privateBucket(bucket) {
  const servedImage = new RegExp(`^/${bucket.replace(/[.]/g, '\\.')}/media/[0-9A-HJKMNP-TV-Z]{26}/[A-Za-z0-9_-]{22}/(original|1080|640|320)\\.(jpg|png|webp)$`);
  return async function privateBucketAccess(ctx, next) {
    const signed = 'authorization' in ctx.headers || 'Signature' in ctx.query || 'X-Amz-Algorithm' in ctx.query;
    const read = (ctx.method === 'GET' || ctx.method === 'HEAD') && ctx.querystring === '' && servedImage.test(ctx.path);
    if (signed || read || ctx.method === 'OPTIONS') return next();
    ctx.status = 403;
    ctx.type = 'application/xml';
    ctx.body = '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>';
  };
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
  // Right after s3rver's virtual-host rewrite, before its routes (Koa composes the middleware
  // when it starts listening). Refuse to start rather than serve the bucket without it.
  const vhost = server.middleware.findIndex((m) => m.name === 'vhost');
  if (vhost < 0) throw new Error('local S3: the s3rver middleware to follow (vhost) is not there; the bucket would be open');
  server.middleware.splice(vhost + 1, 0, privateBucket(bucket));
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
