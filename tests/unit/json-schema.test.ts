// The checker of tests/deploy/openapi-responses.test.ts must be able to fail.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SchemaChecker, refsIn } from '../support/json-schema';

const doc = JSON.parse(readFileSync(join(__dirname, '../../docs/openapi.json'), 'utf8'));
const follow = doc.paths['/users/follow/{identifier}'].post.responses['200'].content['application/json'].schema;
const followers = doc.paths['/users/{identifier}/followers'].get.responses['200'].content['application/json'].schema;
const user = {
  _id: '01ARZ3NDEKTSV4RRFFQ69G5FAV', name: 'A', username: 'a', image: '', bio: '', gender: '', emailVerified: false, isPrivate: false,
  followers: [], following: [], createdAt: '2026-11-20T21:38:00.000Z', updatedAt: '2026-11-20T21:38:00.000Z', isFollowing: true, requested: false,
};
const check = (schema: Record<string, unknown>, v: unknown) => new SchemaChecker(doc).check(schema, v);

it('accepts a documented answer', () => {
  expect(check(follow, { success: true, message: 'ok', isFollowing: true, requested: false, followersCount: 1 })).toEqual([]);
  expect(check(followers, { success: true, followers: [user], pagination: { hasMore: false, nextCursor: null } })).toEqual([]);
});

it('names a missing, an undocumented, a mistyped and a negative field', () => {
  expect(check(follow, { success: true, message: 'ok', isFollowing: 'yes', followersCount: -1, extra: 1 }).sort()).toEqual([
    '$.extra: not documented', '$.followersCount: -1 < 0', '$.isFollowing: string is not boolean', '$.requested: missing',
  ]);
  expect(check(follow, { success: false, message: 'ok', isFollowing: true }).sort()).toEqual(['$.followersCount: missing', '$.requested: missing', '$.success: false is not true']);
});

it('checks list items through allOf: base fields, added fields, no others, timestamps with milliseconds', () => {
  const { isFollowing: _, ...noFlag } = user;
  const bad = [{ ...noFlag, email: 1, passwordHash: 'x', createdAt: '2026-11-20T21:38:00Z' }];
  expect(check(followers, { success: true, followers: bad, pagination: { hasMore: false, nextCursor: null } }).sort()).toEqual([
    '$.followers[0].createdAt: 2026-11-20T21:38:00Z is not an ISO timestamp with milliseconds',
    '$.followers[0].email: integer is not string',
    '$.followers[0].isFollowing: missing',
    '$.followers[0].passwordHash: not documented',
  ]);
});

it('lists the components an answer names, and which were checked', () => {
  expect(refsIn(followers).sort()).toEqual(['ListPagination', 'UserWithFollowing']);
  const c = new SchemaChecker(doc);
  c.check(followers, { success: true, followers: [], pagination: { hasMore: false, nextCursor: null } });
  expect(c.seen.has('UserWithFollowing')).toBe(false);
});
