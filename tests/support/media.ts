// Media test helpers: images made on the spot with sharp, the upload through a presigned
// URL to the run's local S3 server, and the S3 event that server emitted for it
// (tests/support/global-setup.ts writes each event to S3_EVENTS_DIR).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { S3Event } from 'aws-lambda';
import { call } from './invoke';
import { handler as uploads } from '../../functions/media/uploads';
import { handler as processHandler } from '../../functions/media/process';
import { SignatureV4 } from '@smithy/signature-v4';
import { getObject } from '../../lib/media/s3';
import { config, LOCAL_S3_CREDENTIALS } from '../../lib/config';
import { Sha256 } from './sha256';

/** Polls for the S3 event of `key` (the newest, when there are several). */
export async function waitForS3Event(key: string, timeoutMs = 20_000): Promise<S3Event> {
  const dir = process.env.S3_EVENTS_DIR!;
  const prefix = `${encodeURIComponent(key)}.`;
  const until = Date.now() + timeoutMs;
  for (;;) {
    const files = readdirSync(dir).filter((f) => f.startsWith(prefix)).sort();
    if (files.length) return JSON.parse(readFileSync(join(dir, files[files.length - 1]!), 'utf8')) as S3Event;
    if (Date.now() > until) throw new Error(`no S3 event for ${key}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Polls until the local S3 server emitted `count` events for `key`; answers the newest. */
export async function waitForS3Events(key: string, count: number, timeoutMs = 20_000): Promise<S3Event> {
  const dir = process.env.S3_EVENTS_DIR!;
  const prefix = `${encodeURIComponent(key)}.`;
  const until = Date.now() + timeoutMs;
  for (;;) {
    const files = readdirSync(dir).filter((f) => f.startsWith(prefix)).sort();
    if (files.length >= count) return JSON.parse(readFileSync(join(dir, files[files.length - 1]!), 'utf8')) as S3Event;
    if (Date.now() > until) throw new Error(`fewer than ${count} S3 events for ${key}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Whether the local S3 server emitted any event for `key` so far. */
export function hasS3Event(key: string): boolean {
  return readdirSync(process.env.S3_EVENTS_DIR!).some((f) => f.startsWith(`${encodeURIComponent(key)}.`));
}

/** The storage's URL of an object of the run's bucket (path style). */
export const objectUrl = (key: string) => `${process.env.S3_ENDPOINT}/${process.env.MEDIA_BUCKET}/${key}`;

/** An object's bytes read with a signature (as processing reads them; anonymous readers get only processed images); undefined when missing. */
export async function storedObject(key: string): Promise<Buffer | undefined> {
  const res = await getObject(key);
  if (!res) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of res.body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** The tags of an object of the run's bucket, read with a signature (anonymous readers may not read them, as in AWS). */
export async function objectTags(key: string): Promise<Record<string, string>> {
  const url = new URL(objectUrl(key));
  const signer = new SignatureV4({ service: 's3', region: config.region, credentials: LOCAL_S3_CREDENTIALS, sha256: Sha256, uriEscapePath: false });
  const signed = await signer.sign({
    method: 'GET', protocol: url.protocol, hostname: url.hostname, port: Number(url.port), path: url.pathname, query: { tagging: '' },
    headers: { host: url.host, 'x-amz-content-sha256': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' },
  });
  const res = await fetch(`${url.href}?tagging`, { headers: signed.headers });
  if (res.status !== 200) throw new Error(`tags of ${key}: ${res.status} ${await res.text()}`);
  const xml = await res.text();
  return Object.fromEntries([...xml.matchAll(/<Tag><Key>([^<]*)<\/Key><Value>([^<]*)<\/Value><\/Tag>/g)].map((m) => [m[1]!, m[2]!]));
}

/** EXIF with a GPS position, a camera and a date (the orientation is set apart: 6 = rotate 90° clockwise to view). */
export const TELLTALE_EXIF = {
  IFD0: { Make: 'TelltaleCam', Model: 'Spy 3000', Software: 'leaky', DateTime: '2021:02:03 04:05:06' },
  IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2964/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 17/1 4012/100' },
};

/**
 * An image of `width` x `height` stored pixels: left half red, right half blue, so an
 * applied orientation is visible in the output's pixels, with EXIF as above.
 */
export async function makeImage(format: 'jpeg' | 'png' | 'webp', width: number, height: number, opts: { exif?: boolean } = {}): Promise<Buffer> {
  const half = Math.floor(width / 2);
  const base = sharp({ create: { width, height, channels: 3, background: { r: 220, g: 20, b: 20 } } })
    .composite([{ input: { create: { width: width - half, height, channels: 3, background: { r: 20, g: 20, b: 220 } } }, left: half, top: 0 }]);
  const withMeta = opts.exif === false ? base : base.withExif(TELLTALE_EXIF).withMetadata({ orientation: 6 });
  return withMeta.toFormat(format).toBuffer();
}


export interface IssuedUpload { mediaId: string; method: string; url: string; fields: Record<string, string>; headers: Record<string, string>; maxBytes: number; expiresAt: string }

/** POST /media/uploads as `token`; throws unless 201. */
export async function issueUpload(token: string, contentType: string, size: number): Promise<IssuedUpload> {
  const res = await call(uploads, 'POST /media/uploads', { token, body: { contentType, size } });
  if (res.status !== 201) throw new Error(`upload not issued: ${res.status} ${res.text}`);
  return res.body.upload as IssuedUpload;
}

/** Issues an upload, PUTs `bytes` exactly as instructed, and answers the storage's event for it. */
export async function upload(token: string, bytes: Buffer, contentType: string): Promise<{ mediaId: string; event: S3Event }> {
  const u = await issueUpload(token, contentType, bytes.length);
  const res = await fetch(u.url, { method: u.method, headers: u.headers, body: bytes });
  if (res.status !== 200) throw new Error(`upload refused by storage: ${res.status} ${await res.text()}`);
  return { mediaId: u.mediaId, event: await waitForS3Event(`uploads/${u.mediaId}`) };
}

/** Uploads and runs the processing handler on the storage's event; answers the media id. */
export async function readyMedia(token: string, bytes?: Buffer, contentType = 'image/jpeg'): Promise<string> {
  const { mediaId, event } = await upload(token, bytes ?? (await makeImage('jpeg', 64, 48)), contentType);
  await processHandler(event);
  return mediaId;
}
