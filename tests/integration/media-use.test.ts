// Posts and profiles from uploaded media (contract section 12): only the caller's own ready
// media that nothing uses yet; a post's media go with it; a replaced profile media is
// deleted; unused media carry their 24-hour TTL and "unused" object tag until taken.
import { call } from '../support/invoke';
import { makeUser, type TestUser } from '../support/factories';
import { getItem } from '../support/db';
import { makeImage, objectTags, objectUrl, readyMedia, upload } from '../support/media';
import { handler as createPost } from '../../functions/posts/create';
import { handler as deletePost } from '../../functions/posts/delete';
import { handler as editProfile } from '../../functions/users/edit';
import { handler as getMedia } from '../../functions/media/get';
import { handler as processMedia } from '../../functions/media/process';
import { runCleanup } from '../../lib/cleanup/worker';
import * as keys from '../../lib/keys';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { changeRecord } from '../support/stream';
import { db, TABLE } from '../../lib/db/client';
import { markObjectsUsed } from '../../lib/media/use';
import type { MediaItem } from '../../lib/media/model';
import { handler as consumer } from '../../functions/events/stream';
import { consumerMapping, passesFilters } from '../../scripts/lib/stream-poller.mjs';
import { ROOT } from '../../scripts/lib/manifests.mjs';

let me: TestUser;
let other: TestUser;
beforeAll(async () => { [me, other] = await Promise.all([makeUser(), makeUser()]); });

const mediaOf = async (token: string, mediaId: string) => call(getMedia, 'GET /media/{media_id}', { token, params: { media_id: mediaId } });
const post = (token: string, body: unknown) => call(createPost, 'POST /posts/create', { token, body });
/** The tags of the object a served URL is (read with a signature: the bucket serves images, not their tags). */
const tagOf = (url: string) => objectTags(url.slice(objectUrl('').length));
const postsCount = async (u: TestUser) => Number((await getItem(keys.user(u.id)))?.postsCount);

it('creates a post from media, in order; its image and image_public_id are their urls and ids', async () => {
  const [a, b] = [await readyMedia(me.token), await readyMedia(me.token, await makeImage('png', 50, 40), 'image/png')];
  const [ma, mb] = [(await mediaOf(me.token, a)).body.media, (await mediaOf(me.token, b)).body.media];
  const res = await post(me.token, { media: [b, a], caption: 'from uploads' });
  expect(res.status).toBe(201);
  expect(res.body.post).toMatchObject({ image: JSON.stringify([mb.url, ma.url]), image_public_id: JSON.stringify([b, a]), caption: 'from uploads', author: me.id });
  // Taken: no TTL any more, objects tagged used (the lifecycle rule expires only "unused" ones).
  const item = await getItem(keys.media(a));
  expect(item).toMatchObject({ usedBy: `post#${res.body.post._id}` });
  expect(item!.expiresAt).toBeUndefined();
  for (const url of [ma.url, ...Object.values(ma.variants) as string[]]) expect(await tagOf(url)).toEqual({ 'aperture-media': 'used' });
  // A media makes one post only.
  const again = await post(me.token, { media: [a] });
  expect(again.status).toBe(400);
  expect(again.body.details[0].path).toBe('media.0');
});

it("refuses someone else's media, pending and rejected media, and wrong combinations; nothing is created", async () => {
  const foreign = await readyMedia(other.token);
  const pending = (await upload(me.token, await makeImage('jpeg', 20, 20), 'image/jpeg')).mediaId;
  const rejected = await (async () => {
    const u = await upload(me.token, Buffer.from('not an image at all'), 'image/jpeg');
    await processMedia(u.event);
    return u.mediaId;
  })();
  const mine = await readyMedia(me.token);
  const before = await postsCount(me);
  const cases: [unknown, string][] = [
    [{ media: [foreign] }, 'media.0'],
    [{ media: [mine, pending] }, 'media.1'],
    [{ media: [rejected] }, 'media.0'],
    [{ media: ['01JZZZZZZZZZZZZZZZZZZZZZZZ'] }, 'media.0'],
    [{ media: [mine, mine] }, 'media'],
    [{ media: [] }, 'media'],
    [{ media: [mine], image: 'https://cdn.example.test/a.jpg' }, 'media'],
    [{ caption: 'neither' }, 'image'],
    [{ media: [mine], image_public_id: 'x' }, 'image_public_id'],
  ];
  for (const [body, path] of cases) {
    const res = await post(me.token, body);
    expect({ body, status: res.status, code: res.body.code, paths: res.body.details?.map((d: { path: string }) => d.path) })
      .toEqual({ body, status: 400, code: 'VALIDATION_ERROR', paths: expect.arrayContaining([path]) });
  }
  expect(await postsCount(me)).toBe(before);
  // The refused requests took nothing: the media is still free.
  expect((await post(me.token, { media: [mine] })).status).toBe(201);
});

it("deletes a post's media with the post (its cleanup job)", async () => {
  const id = await readyMedia(me.token);
  const m = (await mediaOf(me.token, id)).body.media;
  const created = await post(me.token, { media: [id] });
  const postId = created.body.post._id;
  expect((await call(deletePost, 'DELETE /posts/{post_id}', { token: me.token, params: { post_id: postId } })).status).toBe(200);
  expect(await runCleanup('post', postId, { keepGoing: () => true, settleMs: 0 })).toMatchObject({ done: true });
  expect((await mediaOf(me.token, id)).status).toBe(404);
  expect(await getItem(keys.media(id))).toBeUndefined();
  for (const url of [m.url, ...Object.values(m.variants) as string[]]) expect((await fetch(url)).status).toBe(404);
});

it('sets the profile image from imageMedia (its 320 variant); a replaced one is deleted', async () => {
  const first = await readyMedia(me.token, await makeImage('webp', 900, 500), 'image/webp');
  const m1 = (await mediaOf(me.token, first)).body.media;
  const res = await call(editProfile, 'POST /users/profile/edit', { token: me.token, body: { imageMedia: first, bio: 'new face' } });
  expect(res.status).toBe(200);
  expect(res.body.user).toMatchObject({ image: m1.variants['320'], bio: 'new face' });
  expect(await getItem(keys.media(first))).toMatchObject({ usedBy: 'profile' });

  const second = await readyMedia(me.token);
  const m2 = (await mediaOf(me.token, second)).body.media;
  const res2 = await call(editProfile, 'POST /users/profile/edit', { token: me.token, body: { imageMedia: second } });
  expect(res2.body.user.image).toBe(m2.variants['320']);
  expect((await mediaOf(me.token, first)).status).toBe(404);
  for (const url of [m1.url, ...Object.values(m1.variants) as string[]]) expect((await fetch(url)).status).toBe(404);

  // A URL instead gives back the upload too.
  const res3 = await call(editProfile, 'POST /users/profile/edit', { token: me.token, body: { image: 'https://cdn.example.test/me.png' } });
  expect(res3.body.user.image).toBe('https://cdn.example.test/me.png');
  expect((await mediaOf(me.token, second)).status).toBe(404);
});

it("a profile image that is a URL of someone else's media, or of the caller's post's, is not the profile's to give back: changing it leaves that media alone", async () => {
  const u = await makeUser();
  const theirs = (await mediaOf(other.token, await readyMedia(other.token))).body.media;
  const forPost = await readyMedia(u.token);
  const posted = (await mediaOf(u.token, forPost)).body.media;
  expect((await post(u.token, { media: [forPost], caption: 'with a photo' })).status).toBe(201);
  for (const m of [theirs, posted]) {
    const set = await call(editProfile, 'POST /users/profile/edit', { token: u.token, body: { image: m.variants['320'] } });
    expect(set.status).toBe(200);
    const changed = await call(editProfile, 'POST /users/profile/edit', { token: u.token, body: { image: 'https://cdn.example.test/other.png' } });
    expect({ status: changed.status, image: changed.body.user?.image }).toEqual({ status: 200, image: 'https://cdn.example.test/other.png' });
    expect(await getItem(keys.media(m._id))).toBeDefined();
    for (const url of [m.url, ...Object.values(m.variants) as string[]]) expect((await fetch(url)).status).toBe(200);
  }
});

it("refuses someone else's or a pending imageMedia, and imageMedia with image", async () => {
  const foreign = await readyMedia(other.token);
  const pending = (await upload(me.token, await makeImage('jpeg', 20, 20), 'image/jpeg')).mediaId;
  const mine = await readyMedia(me.token);
  for (const [body, path] of [[{ imageMedia: foreign }, 'imageMedia'], [{ imageMedia: pending }, 'imageMedia'], [{ imageMedia: mine, image: '' }, 'imageMedia']] as const) {
    const res = await call(editProfile, 'POST /users/profile/edit', { token: me.token, body });
    expect({ body, status: res.status, path: res.body.details?.[0]?.path }).toEqual({ body, status: 400, path });
  }
  expect(await getItem(keys.media(mine))).not.toHaveProperty('usedBy');
});

it('keeps an unused media for 24 hours from its upload (TTL), its images tagged unused', async () => {
  const id = await readyMedia(me.token);
  const item = await getItem(keys.media(id));
  const issued = Date.parse(String(item!.createdAt));
  expect(item!.expiresAt).toBe(Math.floor(issued / 1000) + 24 * 3600);
  const m = (await mediaOf(me.token, id)).body.media;
  for (const url of [m.url, ...Object.values(m.variants) as string[]]) expect(await tagOf(url)).toEqual({ 'aperture-media': 'unused' });
});

it('an untaken media whose images a failed creation re-tagged "used": when DynamoDB\'s TTL removes its item, the stream deletes its images', async () => {
  const id = await readyMedia(me.token);
  const m = (await mediaOf(me.token, id)).body.media;
  const urls = [m.url, ...Object.values(m.variants) as string[]];
  const item = (await getItem(keys.media(id)))!;
  // What a post creation does before its transaction; the transaction then failed.
  await markObjectsUsed([item as unknown as MediaItem]);
  for (const url of urls) expect(await tagOf(url)).toEqual({ 'aperture-media': 'used' });
  // DynamoDB Local never expires items: the deletion and its stream record are made here, the
  // record as DynamoDB's TTL writes it (its userIdentity is the service).
  await db.send(new DeleteCommand({ TableName: TABLE, Key: keys.media(id) }));
  const record = changeRecord('REMOVE', item, { byTtl: true });
  expect(passesFilters(record, consumerMapping(ROOT).filterPatterns)).toBe(true);
  expect(await consumer({ Records: [record as never] })).toEqual({ batchItemFailures: [] });
  for (const url of urls) expect((await fetch(url)).status).toBe(404);
  // The same record again changes nothing.
  expect(await consumer({ Records: [record as never] })).toEqual({ batchItemFailures: [] });
});
