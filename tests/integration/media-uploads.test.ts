// POST /media/uploads and GET /media/{media_id} (contract section 12): the presigned PUT
// it answers really uploads to the local storage, its rules, the owner-only read, and the
// Idempotency-Key (section 8).
import { call } from '../support/invoke';
import { makeUser, type TestUser } from '../support/factories';
import { issueUpload, objectUrl, storedObject, waitForS3Event } from '../support/media';
import { handler as uploads } from '../../functions/media/uploads';
import { handler as getMedia } from '../../functions/media/get';

let me: TestUser;
let other: TestUser;
beforeAll(async () => { [me, other] = await Promise.all([makeUser(), makeUser()]); });

it('answers a presigned PUT of exactly the declared type and size, valid 15 minutes', async () => {
  const before = Date.now();
  const res = await call(uploads, 'POST /media/uploads', { token: me.token, body: { contentType: 'image/webp', size: 1234 } });
  expect(res.status).toBe(201);
  expect(res.body.success).toBe(true);
  const u = res.body.upload;
  expect(u).toEqual({
    mediaId: expect.stringMatching(/^[0-9A-Z]{26}$/), method: 'PUT', url: expect.any(String), fields: {},
    headers: { 'Content-Type': 'image/webp', 'Content-Length': '1234' }, maxBytes: 1234, expiresAt: expect.any(String),
  });
  const expires = Date.parse(u.expiresAt);
  expect(expires).toBeGreaterThanOrEqual(before + 15 * 60_000 - 1000);
  expect(expires).toBeLessThanOrEqual(Date.now() + 15 * 60_000);
  expect(new URL(u.url).searchParams.get('X-Amz-Expires')).toBe('900');
  expect(new URL(u.url).searchParams.get('X-Amz-SignedHeaders')!.split(';')).toEqual(expect.arrayContaining(['content-length', 'content-type']));

  // The client follows the instructions as given: the storage takes the bytes.
  const put = await fetch(u.url, { method: 'PUT', headers: { 'Content-Type': 'image/webp' }, body: Buffer.alloc(1234, 1) });
  expect(put.status).toBe(200);
  await waitForS3Event(`uploads/${u.mediaId}`);
  expect(await storedObject(`uploads/${u.mediaId}`)).toEqual(Buffer.alloc(1234, 1));
  // Stored, and served to no one: the raw upload is read by processing only.
  expect((await fetch(objectUrl(`uploads/${u.mediaId}`))).status).toBe(403);

  const got = await call(getMedia, 'GET /media/{media_id}', { token: me.token, params: { media_id: u.mediaId } });
  expect(got.status).toBe(200);
  expect(got.body.media).toEqual({
    _id: u.mediaId, owner: me.id, status: 'pending', contentType: 'image/webp', width: null, height: null,
    url: null, variants: null, reason: null, createdAt: expect.any(String), updatedAt: expect.any(String),
  });
});

it('refuses other types, sizes outside 1 byte to 15 MiB, and unknown fields', async () => {
  const bad = [
    { contentType: 'image/gif', size: 10 },
    { contentType: 'image/svg+xml', size: 10 },
    { contentType: 'image/png', size: 0 },
    { contentType: 'image/png', size: 15 * 1024 * 1024 + 1 },
    { contentType: 'image/png', size: 1.5 },
    { contentType: 'image/png', size: '10' },
    { contentType: 'image/png' },
    { contentType: 'image/png', size: 10, key: 'uploads/mine' },
  ];
  for (const body of bad) {
    const res = await call(uploads, 'POST /media/uploads', { token: me.token, body });
    expect([body, res.status, res.body.code]).toEqual([body, 400, 'VALIDATION_ERROR']);
  }
  const max = await call(uploads, 'POST /media/uploads', { token: me.token, body: { contentType: 'image/png', size: 15 * 1024 * 1024 } });
  expect(max.status).toBe(201);
});

it("answers 404 for someone else's media and for an unknown id", async () => {
  const u = await issueUpload(me.token, 'image/jpeg', 100);
  const foreign = await call(getMedia, 'GET /media/{media_id}', { token: other.token, params: { media_id: u.mediaId } });
  expect(foreign.status).toBe(404);
  expect(foreign.body.code).toBe('NOT_FOUND');
  const unknown = await call(getMedia, 'GET /media/{media_id}', { token: me.token, params: { media_id: '01JZZZZZZZZZZZZZZZZZZZZZZZ' } });
  expect(unknown.status).toBe(404);
});

it('honours Idempotency-Key: the same request with the same key answers the first upload again', async () => {
  const headers = { 'Idempotency-Key': `media-${me.id}-1` };
  const body = { contentType: 'image/png', size: 500 };
  const first = await call(uploads, 'POST /media/uploads', { token: me.token, body, headers });
  const again = await call(uploads, 'POST /media/uploads', { token: me.token, body, headers });
  expect(first.status).toBe(201);
  expect(again.status).toBe(201);
  expect(again.body).toEqual(first.body);
  const fresh = await call(uploads, 'POST /media/uploads', { token: me.token, body, headers: { 'Idempotency-Key': `media-${me.id}-2` } });
  expect(fresh.body.upload.mediaId).not.toBe(first.body.upload.mediaId);
});
