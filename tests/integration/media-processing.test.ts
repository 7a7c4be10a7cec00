// Processing (contract section 12): an image uploaded through the local storage reaches the
// processing handler by the storage's own ObjectCreated event; the media becomes ready with
// its variants, orientation applied and every metadata field gone, or rejected with a reason.
import { pngHeaderOnly } from '../support/png';
import sharp from 'sharp';
import { call } from '../support/invoke';
import { makeUser, type TestUser } from '../support/factories';
import { issueUpload, makeImage, objectUrl, storedObject, upload, waitForS3Event, waitForS3Events } from '../support/media';
import { handler as getMedia } from '../../functions/media/get';
import { handler as processHandler } from '../../functions/media/process';
import { REASONS } from '../../lib/media/render';
import { presignUpload } from '../../lib/media/storage';
import * as keys from '../../lib/keys';
import { getItem } from '../support/db';

let me: TestUser;
const seenSecrets: string[] = [];
beforeAll(async () => { me = await makeUser(); });

const media = async (mediaId: string) => {
  const res = await call(getMedia, 'GET /media/{media_id}', { token: me.token, params: { media_id: mediaId } });
  expect(res.status).toBe(200);
  return res.body.media;
};
const download = async (url: string) => {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
};
const hasGps = (exif: Buffer) => exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88]));

it('makes a ready media from a JPEG: orientation applied, metadata gone from every image, variants never enlarged', async () => {
  // 1600 x 1000 stored, EXIF orientation 6: shown 1000 wide, 1600 high; red on top, blue below.
  const input = await makeImage('jpeg', 1600, 1000);
  const inMeta = await sharp(input).metadata();
  expect(inMeta.orientation).toBe(6);
  expect(hasGps(inMeta.exif!)).toBe(true);
  expect(input.includes('TelltaleCam')).toBe(true);

  const { mediaId, event } = await upload(me.token, input, 'image/jpeg');
  expect((await media(mediaId)).status).toBe('pending');
  expect(await processHandler(event)).toEqual({ outcomes: ['ready'] });

  const m = await media(mediaId);
  expect(m).toMatchObject({ status: 'ready', reason: null, width: 1000, height: 1600, contentType: 'image/jpeg' });
  expect(Object.keys(m.variants).sort()).toEqual(['1080', '320', '640']);
  const expected: [string, number, number][] = [[m.url, 1000, 1600], [m.variants['1080'], 675, 1080], [m.variants['640'], 400, 640], [m.variants['320'], 200, 320]];
  // Every image under the media's secret: 128 random bits in the path (contract section 12).
  const secret = /\/media\/[0-9A-Z]{26}\/([A-Za-z0-9_-]{22})\/original\.jpg$/.exec(m.url)?.[1];
  expect(Buffer.from(secret!, 'base64url')).toHaveLength(16);
  for (const [url, width, height] of expected) {
    expect(url.startsWith(`${process.env.S3_ENDPOINT}/${process.env.MEDIA_BUCKET}/media/${mediaId}/${secret}/`)).toBe(true);
    const bytes = await download(url);
    const meta = await sharp(bytes).metadata();
    expect({ url, format: meta.format, width: meta.width, height: meta.height }).toEqual({ url, format: 'jpeg', width, height });
    expect({ url, exif: meta.exif, xmp: meta.xmp, iptc: meta.iptc, icc: meta.icc, orientation: meta.orientation })
      .toEqual({ url, exif: undefined, xmp: undefined, iptc: undefined, icc: undefined, orientation: undefined });
    expect(bytes.includes('TelltaleCam')).toBe(false);
    // The orientation is in the pixels: red on top, blue at the bottom.
    const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    const px = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
    const top = px(Math.floor(width / 2), Math.floor(height * 0.1));
    const bottom = px(Math.floor(width / 2), Math.floor(height * 0.9));
    expect(top[0]! > 150 && top[2]! < 100).toBe(true);
    expect(bottom[2]! > 150 && bottom[0]! < 100).toBe(true);
  }
  // Each size's URL is the full-size one's with the size for `original` (API.md: how apps that see
  // only a post's `image` show a size).
  for (const size of ['1080', '640', '320']) expect(m.variants[size]).toBe(m.url.replace(/\/original\.jpg$/, `/${size}.jpg`));
  // Without the secret, the id names no image anyone can read.
  expect((await fetch(`${process.env.S3_ENDPOINT}/${process.env.MEDIA_BUCKET}/media/${mediaId}/original.jpg`)).status).toBe(403);
  // The raw upload is gone; only the processed images remain.
  expect(await storedObject(`uploads/${mediaId}`)).toBeUndefined();
});

it.each(['png', 'webp'] as const)('keeps a small %s at its own size in every variant, without its metadata', async (format) => {
  const input = await makeImage(format, 300, 200);
  expect((await sharp(input).metadata()).exif).toBeDefined();
  const { mediaId, event } = await upload(me.token, input, `image/${format}`);
  await processHandler(event);
  const m = await media(mediaId);
  expect(m).toMatchObject({ status: 'ready', width: 200, height: 300, contentType: `image/${format}` });
  // Each media draws its own secret.
  const secretOf = (url: string) => url.split('/').at(-2);
  expect(secretOf(m.url)).toMatch(/^[A-Za-z0-9_-]{22}$/);
  expect(new Set([m.url, ...Object.values(m.variants) as string[]].map(secretOf)).size).toBe(1);
  seenSecrets.push(secretOf(m.url)!);
  expect(new Set(seenSecrets).size).toBe(seenSecrets.length);
  for (const url of [m.url, ...Object.values(m.variants) as string[]]) {
    const meta = await sharp(await download(url)).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height, exif: meta.exif, xmp: meta.xmp, icc: meta.icc })
      .toEqual({ format, width: 200, height: 300, exif: undefined, xmp: undefined, icc: undefined });
  }
});

it('rejects a decompression bomb (over 50 megapixels) from its header, before decoding it', async () => {
  const bomb = pngHeaderOnly(20_000, 20_000); // 400 megapixels in about 1 KB
  expect(bomb.length).toBeLessThan(5000);
  const { mediaId, event } = await upload(me.token, bomb, 'image/png');
  expect(await processHandler(event)).toEqual({ outcomes: ['rejected'] });
  expect(await media(mediaId)).toMatchObject({ status: 'rejected', reason: REASONS.tooManyPixels, url: null, variants: null, width: null, height: null });
  expect(await storedObject(`uploads/${mediaId}`)).toBeUndefined();
  const { secret } = (await getItem(keys.media(mediaId)))!;
  expect(await fetch(objectUrl(`media/${mediaId}/${secret}/original.png`)).then((r) => r.status)).toBe(404);

  // Just over the limit is refused the same way; just under is decoded (and this one's pixel data is broken).
  const over = await upload(me.token, pngHeaderOnly(7072, 7071), 'image/png');
  await processHandler(over.event);
  expect((await media(over.mediaId)).reason).toBe(REASONS.tooManyPixels);
  const under = await upload(me.token, pngHeaderOnly(7071, 7071), 'image/png');
  await processHandler(under.event);
  expect((await media(under.mediaId)).reason).toBe(REASONS.undecodable);
});

it('rejects a non-image and an image of another type than declared', async () => {
  const text = await upload(me.token, Buffer.from('#!/bin/sh\necho not an image\n'.repeat(20)), 'image/jpeg');
  await processHandler(text.event);
  expect(await media(text.mediaId)).toMatchObject({ status: 'rejected', reason: REASONS.notDeclaredType });

  const png = await upload(me.token, await makeImage('png', 40, 30), 'image/jpeg');
  await processHandler(png.event);
  expect(await media(png.mediaId)).toMatchObject({ status: 'rejected', reason: REASONS.notDeclaredType });
});

it('checks the real size again: more bytes than declared, written past the signature, are rejected', async () => {
  // The storage holds more bytes than the upload declared, however they got there (here a PUT
  // signed for their real length; storage refuses an unsigned one): processing reads the real size.
  const u = await issueUpload(me.token, 'image/jpeg', 100);
  const big = await makeImage('jpeg', 200, 200, { exif: false });
  expect(big.length).toBeGreaterThan(100);
  const signedForMore = await presignUpload(u.mediaId, 'image/jpeg', big.length, 900);
  expect((await fetch(signedForMore, { method: 'PUT', body: big, headers: { 'Content-Type': 'image/jpeg' } })).status).toBe(200);
  await processHandler(await waitForS3Event(`uploads/${u.mediaId}`));
  expect(await media(u.mediaId)).toMatchObject({ status: 'rejected', reason: REASONS.tooLarge });
});

it('processes once: a repeated event changes nothing', async () => {
  const { mediaId, event } = await upload(me.token, await makeImage('jpeg', 64, 48), 'image/jpeg');
  expect(await processHandler(event)).toEqual({ outcomes: ['ready'] });
  const first = await media(mediaId);
  expect(await processHandler(event)).toEqual({ outcomes: ['ignored'] });
  expect(await media(mediaId)).toEqual(first);
});

it('deletes unread the bytes written to an upload\'s key after its processing (its presigned URL used again)', async () => {
  const image = await makeImage('png', 64, 48);
  const u = await issueUpload(me.token, 'image/png', image.length);
  const key = `uploads/${u.mediaId}`;
  expect((await fetch(u.url, { method: u.method, headers: u.headers, body: image })).status).toBe(200);
  expect(await processHandler(await waitForS3Events(key, 1))).toEqual({ outcomes: ['ready'] });
  const ready = await media(u.mediaId);
  const served = await download(ready.url);

  // The same URL, within its 15 minutes, with an HTML page of the signed length.
  const page = Buffer.from('<html><script>alert(document.cookie)</script>'.padEnd(image.length, ' '));
  expect(page.length).toBe(image.length);
  expect((await fetch(u.url, { method: u.method, headers: u.headers, body: page })).status).toBe(200);
  expect((await fetch(objectUrl(key))).status).toBe(403);
  const late = await waitForS3Events(key, 2);
  expect(await processHandler(late)).toEqual({ outcomes: ['ignored'] });

  // Gone from storage, and nothing of it processed or served.
  expect(await storedObject(key)).toBeUndefined();
  expect(await media(u.mediaId)).toEqual(ready);
  expect(await download(ready.url)).toEqual(served);
});
