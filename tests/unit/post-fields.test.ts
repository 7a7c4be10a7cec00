import * as z from 'zod/mini';
import { createBody } from '../../functions/posts/create';
import { imageUrls } from '../../lib/posts/fields';
import { pagination } from '../../lib/posts/pages';

const parse = (body: unknown) => z.safeParse(createBody, body);

describe('post image rules', () => {
  it.each([
    ['the seed\'s JSON-stringified array', JSON.stringify(['https://a.test/1.jpg', 'http://b.test/2.png'])],
    ['a real JSON array', ['https://a.test/1.jpg', 'http://b.test/2.png']],
  ])('accepts %s and stores the JSON-stringified array', (_what, image) => {
    const r = parse({ image });
    expect(r.success).toBe(true);
    expect(r.data!.image).toBe(JSON.stringify(['https://a.test/1.jpg', 'http://b.test/2.png']));
    expect(r.data!.caption).toBe('');
    expect(r.data!.image_public_id).toBe('');
  });

  it('accepts a single URL string', () => {
    expect(parse({ image: ' https://a.test/x.jpg ' }).data!.image).toBe('["https://a.test/x.jpg"]');
  });

  it.each([
    ['javascript:', 'javascript:alert(1)'],
    ['data:', 'data:image/png;base64,AAAA'],
    ['a relative URL', '/img/1.jpg'],
    ['an empty array', '[]'],
    ['21 images', JSON.stringify(Array.from({ length: 21 }, (_, i) => `https://a.test/${i}.jpg`))],
    ['a URL over 2048 characters', `https://a.test/${'x'.repeat(2040)}`],
    ['a non-string entry', [1]],
    ['malformed JSON', '["https://a.test/1.jpg"'],
    ['a relative URL inside an array', ['https://a.test/1.jpg', 'img/2.jpg']],
    ['an object', { url: 'https://a.test/1.jpg' }],
  ])('refuses %s', (_what, image) => {
    const r = parse({ image });
    expect(r.success).toBe(false);
  });

  it('accepts exactly 20 images and a URL of exactly 2048 characters', () => {
    expect(imageUrls(Array.from({ length: 20 }, (_, i) => `https://a.test/${i}.jpg`))).toHaveLength(20);
    const long = `https://a.test/${'x'.repeat(2048 - 'https://a.test/'.length)}`;
    expect(long).toHaveLength(2048);
    expect(imageUrls(long)).toEqual([long]);
  });

  it('counts the caption in code points and caps image_public_id', () => {
    expect(parse({ image: 'https://a.test/1.jpg', caption: '😀'.repeat(2200) }).success).toBe(true);
    expect(parse({ image: 'https://a.test/1.jpg', caption: 'a'.repeat(2201) }).success).toBe(false);
    expect(parse({ image: 'https://a.test/1.jpg', image_public_id: 'p'.repeat(2049) }).success).toBe(false);
    expect(parse({ image: 'https://a.test/1.jpg', extra: 1 }).success).toBe(false);
  });
});

describe('page pagination', () => {
  it('derives pages from the total', () => {
    expect(pagination(1, 10, 0)).toEqual({ currentPage: 1, totalPages: 0, totalPosts: 0, hasNextPage: false, hasPrevPage: false });
    expect(pagination(2, 10, 21)).toEqual({ currentPage: 2, totalPages: 3, totalPosts: 21, hasNextPage: true, hasPrevPage: true });
    expect(pagination(5, 10, 21)).toMatchObject({ totalPages: 3, hasNextPage: false, hasPrevPage: true });
  });
});
