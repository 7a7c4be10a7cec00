// The media bucket: one S3 client per container, presigned uploads, object reads and
// writes. Deployed it is the stage's private bucket (served through CloudFront); locally
// the S3-compatible server of `npm start` (scripts/lib/local-s3.mjs), path-style on loopback.
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, PutObjectTaggingCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { config, LOCAL_S3_CREDENTIALS } from '../config';

const media = config.media;

export const s3 = new S3Client({
  region: config.region,
  maxAttempts: 4,
  ...(media.endpoint ? { endpoint: media.endpoint, forcePathStyle: true, credentials: LOCAL_S3_CREDENTIALS } : {}),
  // Presigned URLs must not carry a checksum the client cannot know in advance.
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
});

/** Raw uploads: written by clients, read once by processing, deleted after it (and by the lifecycle rule after a day). */
export const uploadKey = (mediaId: string) => `uploads/${mediaId}`;
export const UPLOAD_KEY = /^uploads\/([0-9A-HJKMNP-TV-Z]{26})$/;
/** Processed images: the only objects the CDN serves. */
export const variantKey = (mediaId: string, name: string, ext: string) => `media/${mediaId}/${name}.${ext}`;
export const publicUrl = (key: string) => `${media.publicUrl}/${key}`;

/** The object tag the bucket's lifecycle rule expires after a day; taken off when a post or profile uses the media. */
export const UNUSED_TAG = { Key: 'aperture-media', Value: 'unused' };
export const USED_TAG = { Key: 'aperture-media', Value: 'used' };

/**
 * A presigned PUT of exactly `size` bytes of `contentType`: both headers are signed, so S3
 * (and the local server, which checks SigV4 the same way) refuses any other type or length,
 * and any request after `expiresIn` seconds.
 */
export async function presignUpload(mediaId: string, contentType: string, size: number, expiresIn: number): Promise<string> {
  const cmd = new PutObjectCommand({ Bucket: media.bucket, Key: uploadKey(mediaId), ContentType: contentType, ContentLength: size });
  return getSignedUrl(s3, cmd, { expiresIn, signableHeaders: new Set(['content-type', 'content-length']) });
}

/** Reads an object, refusing to hold more than `maxBytes` of it in memory. Undefined when missing or larger. */
export async function readObject(key: string, maxBytes: number): Promise<{ bytes: Buffer; tooLarge: false } | { tooLarge: true } | undefined> {
  let res;
  try {
    res = await s3.send(new GetObjectCommand({ Bucket: media.bucket, Key: key }));
  } catch (err) {
    if ((err as { name?: string }).name === 'NoSuchKey') return undefined;
    throw err;
  }
  const body = res.Body as AsyncIterable<Uint8Array> & { destroy?: () => void };
  if (res.ContentLength !== undefined && res.ContentLength > maxBytes) {
    body.destroy?.();
    return { tooLarge: true };
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.length;
    // A server that misstates the length cannot make us buffer more than the limit.
    if (total > maxBytes) { body.destroy?.(); return { tooLarge: true }; }
    chunks.push(Buffer.from(chunk));
  }
  return { bytes: Buffer.concat(chunks), tooLarge: false };
}

export async function putImage(key: string, body: Buffer, contentType: string): Promise<void> {
  await s3.send(new PutObjectCommand({
    Bucket: media.bucket,
    Key: key,
    Body: body,
    ContentType: contentType,
    // Keys never change content (a new upload is a new id), so the CDN and apps may cache forever.
    CacheControl: 'public, max-age=31536000, immutable',
    Tagging: `${UNUSED_TAG.Key}=${UNUSED_TAG.Value}`,
  }));
  // The local server ignores the x-amz-tagging header of a PUT (S3 applies it atomically): tag it apart there.
  if (media.endpoint) await tagObject(key, UNUSED_TAG);
}

export async function tagObject(key: string, tag: { Key: string; Value: string }): Promise<void> {
  await s3.send(new PutObjectTaggingCommand({ Bucket: media.bucket, Key: key, Tagging: { TagSet: [tag] } }));
}

/**
 * Deletes keys; missing keys are no error. One DeleteObject each, 16 at a time: a media has 4
 * objects, a post at most 20 media (DeleteObjects would save requests, but the local server
 * cannot verify its signature, and requests are not what media cost: docs/OPERATIONS.md).
 */
export async function deleteObjects(keys: string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 16) {
    await Promise.all(keys.slice(i, i + 16).map((Key) => s3.send(new DeleteObjectCommand({ Bucket: media.bucket, Key }))));
  }
}
