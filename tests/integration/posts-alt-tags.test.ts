// altText, hashtags and mentions on posts (contract section 19).
import { call } from '../support/invoke';
import { getItem } from '../support/db';
import { users } from '../support/posts';
import { handler as create } from '../../functions/posts/create';
import { handler as edit } from '../../functions/posts/edit';
import { handler as getPost } from '../../functions/posts/get';
import * as keys from '../../lib/keys';
import { transact } from '../../lib/db/transact';
import { goneChanged, goneItem } from '../../lib/users/gone';
import type { TestUser } from '../support/factories';

const IMG2 = ['https://cdn.example.test/a.jpg', 'https://cdn.example.test/b.jpg'];
const createPost = (u: TestUser, body: Record<string, unknown>) =>
  call(create, 'POST /posts/create', { token: u.token, body: { image: IMG2, ...body } });
const editPost = (u: TestUser, postId: string, body: unknown) =>
  call(edit, 'POST /posts/edit/{post_id}', { token: u.token, params: { post_id: postId }, body });

// Suspension as the moderation transaction writes it: the GONE item and the partition's version.
const suspend = (userId: string) => transact([goneItem(userId, 'suspended', new Date().toISOString()), goneChanged()]);

describe('altText', () => {
  it('stores one trimmed text per image, "" for each when absent, and answers it everywhere', async () => {
    const [u] = await users(1);
    const res = await createPost(u, { altText: ['  a harbour  ', ''] });
    expect(res.status).toBe(201);
    expect(res.body.post.altText).toEqual(['a harbour', '']);
    const plain = await createPost(u, {});
    expect(plain.body.post.altText).toEqual(['', '']);
    const read = await call(getPost, 'GET /posts/{post_id}', { token: u.token, params: { post_id: res.body.post._id } });
    expect(read.body.post.altText).toEqual(['a harbour', '']);
  });

  it('refuses a count other than the images, or a text past 1,500 characters', async () => {
    const [u] = await users(1);
    for (const altText of [['one'], ['a', 'b', 'c'], ['x'.repeat(1501), '']]) {
      const res = await createPost(u, { altText });
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    }
    expect((await createPost(u, { altText: ['x'.repeat(1500), ''] })).status).toBe(201);
  });

  it('an edit may carry altText alone (the caption stays) or the caption alone (the alt text stays)', async () => {
    const [u] = await users(1);
    const post = (await createPost(u, { caption: 'hello #Sea', altText: ['one', 'two'] })).body.post;
    const alt = await editPost(u, post._id, { altText: ['uno', ''] });
    expect(alt.status).toBe(200);
    expect(alt.body.post).toMatchObject({ caption: 'hello #Sea', altText: ['uno', ''], hashtags: ['sea'] });
    const cap = await editPost(u, post._id, { caption: 'bye #Land' });
    expect(cap.body.post).toMatchObject({ caption: 'bye #Land', altText: ['uno', ''], hashtags: ['land'] });
    expect(await getItem(keys.post(post._id))).toMatchObject({ altText: ['uno', ''], hashtags: ['land'] });
    expect((await editPost(u, post._id, { altText: ['only one'] })).status).toBe(400);
    expect((await editPost(u, post._id, {})).status).toBe(400);
  });
});

describe('hashtags and mentions on a post', () => {
  it('carries the normalized hashtags in order of first use, and refuses more than 30 distinct', async () => {
    const [u] = await users(1);
    const res = await createPost(u, { caption: '#Café at #CAFÉ with #cafe 🔥#Fire #2024' });
    expect(res.body.post.hashtags).toEqual(['café', 'cafe', 'fire']);
    const thirty = Array.from({ length: 30 }, (_, i) => `#t${i}`).join(' ');
    expect((await createPost(u, { caption: `${thirty} #T0` })).status).toBe(201);
    const many = await createPost(u, { caption: `${thirty} #t30` });
    expect([many.status, many.body.code]).toEqual([400, 'VALIDATION_ERROR']);
  });

  it('carries the ids of mentioned live accounts in order, leaving out unknown and suspended names; at most 20 names', async () => {
    const [author, a, b, gone] = await users(4);
    await suspend(gone.id);
    const res = await createPost(author, { caption: `hi @${b.username.toUpperCase()} @nobody_here @${gone.username} @${a.username}. @${b.username}` });
    expect(res.status).toBe(201);
    expect(res.body.post.mentions).toEqual([b.id, a.id]);
    const names = Array.from({ length: 21 }, (_, i) => `@n${i}`).join(' ');
    const many = await createPost(author, { caption: names });
    expect([many.status, many.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    const edited = await editPost(author, res.body.post._id, { caption: `only @${a.username}` });
    expect(edited.body.post.mentions).toEqual([a.id]);
  });
});
