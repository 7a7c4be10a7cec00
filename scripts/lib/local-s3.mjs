// The local S3-compatible storage of `npm start` and the tests: @20minutes/s3rver (a
// maintained fork of s3rver, in-process, files in a temporary directory), bound to
// 127.0.0.1 only. It verifies SigV4 signatures of presigned URLs (signed headers, expiry),
// which is what makes a presigned PUT with signed Content-Type and Content-Length enforce
// type, size and expiry here as in S3; it ignores a presigned POST's policy entirely and
// accepts unsigned requests (tests/integration/local-s3.test.ts proves each of these).
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
