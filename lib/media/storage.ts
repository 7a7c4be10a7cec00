// The media bucket: presigned uploads, object reads and writes (through the small S3
// client of ./s3.ts). Deployed it is the stage's private bucket (served through CloudFront);
// locally the S3-compatible server of `npm start` (scripts/lib/local-s3.mjs), path-style on loopback.
import { randomBytes } from 'node:crypto';
import { config } from '../config';
import { deleteObject, getObject, presignPut, putObject, putObjectTagging } from './s3';

const media = config.media;

/** Raw uploads: written by clients, read once by processing, deleted after it (and by the lifecycle rule after a day). */
export const uploadKey = (mediaId: string) => `uploads/${mediaId}`;
export const UPLOAD_KEY = /^uploads\/([0-9A-HJKMNP-TV-Z]{26})$/;
/**
 * A media's secret: the path segment of its images that makes their URLs unguessable
 * (contract section 12: at least 128 random bits in every image URL). The id alone is not
 * enough: a ULID has 80 random bits, and ids issued in the same millisecond count up from
 * one another (lib/ids.ts), so a private account's image next to a known one could be found.
 */
export const newMediaSecret = () => randomBytes(16).toString('base64url');
/** Processed images: the only objects the CDN serves. */
export const variantKey = (mediaId: string, secret: string, name: string, ext: string) => `media/${mediaId}/${secret}/${name}.${ext}`;
export const publicUrl = (key: string) => `${media.publicUrl}/${key}`;

/** The object tag the bucket's lifecycle rule expires after a day; set to "used" when a post or profile takes the media. */
export const UNUSED_TAG = { Key: 'aperture-media', Value: 'unused' };
export const USED_TAG = { Key: 'aperture-media', Value: 'used' };

/**
 * A presigned PUT of exactly `size` bytes of `contentType`: both headers are signed, so S3
 * (and the local server, which checks SigV4 the same way) refuses any other type or length,
 * and any request after `expiresIn` seconds.
 */
export function presignUpload(mediaId: string, contentType: string, size: number, expiresIn: number, signingDate?: Date): Promise<string> {
  return presignPut(uploadKey(mediaId), contentType, size, expiresIn, signingDate);
}

/** Reads an object, refusing to hold more than `maxBytes` of it in memory. Undefined when missing. */
export async function readObject(key: string, maxBytes: number): Promise<{ bytes: Buffer; tooLarge: false } | { tooLarge: true } | undefined> {
  const res = await getObject(key);
  if (!res) return undefined;
  if (res.length !== undefined && res.length > maxBytes) {
    res.body.destroy();
    return { tooLarge: true };
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res.body) {
    total += chunk.length;
    // A server that misstates the length cannot make us buffer more than the limit.
    if (total > maxBytes) return { tooLarge: true };
    chunks.push(Buffer.from(chunk));
  }
  return { bytes: Buffer.concat(chunks), tooLarge: false };
}

export async function putImage(key: string, body: Buffer, contentType: string): Promise<void> {
  await putObject(key, body, {
    'content-type': contentType,
    // Keys never change content (a new upload is a new id), so the CDN and apps may cache forever.
    'cache-control': 'public, max-age=31536000, immutable',
    'x-amz-tagging': `${UNUSED_TAG.Key}=${UNUSED_TAG.Value}`,
  });
  // The local server ignores the x-amz-tagging header of a PUT (S3 applies it atomically): tag it apart there.
  if (media.endpoint) await tagObject(key, UNUSED_TAG);
}

export async function tagObject(key: string, tag: { Key: string; Value: string }): Promise<void> {
  await putObjectTagging(key, { [tag.Key]: tag.Value });
}

/**
 * Deletes keys; missing keys are no error. One DeleteObject each, 16 at a time: a media has 4
 * objects, a post at most 20 media (DeleteObjects would save requests, but it needs the SDK's
 * checksums, and requests are not what media cost: docs/OPERATIONS.md).
 */
export async function deleteObjects(keys: string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 16) {
    await Promise.all(keys.slice(i, i + 16).map((k) => deleteObject(k)));
  }
}
