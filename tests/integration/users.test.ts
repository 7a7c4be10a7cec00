import { call } from '../support/invoke';
import { makeUser, uniq } from '../support/factories';
import { getItem, queryAll } from '../support/db';
import { handler as me } from '../../functions/users/me';
import { handler as profile } from '../../functions/users/profile';
import { handler as edit } from '../../functions/users/edit';
import { handler as login } from '../../functions/auth/login';
import * as keys from '../../lib/keys';
import { blockEdge, blockMirror } from '../../lib/graph/edges';
import { db, TABLE } from '../../lib/db/client';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { block } from '../support/comment-fixtures';

const PRIVATE = ['email', 'bookmarks', 'blocked_users', 'twoFactorEnabled'];

describe('GET /users/me', () => {
  it('answers the own base user with its private fields', async () => {
    const u = await makeUser();
    const res = await call(me, 'GET /users/me', { token: u.token });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ _id: u.id, username: u.username, email: u.email, bookmarks: [], blocked_users: [] });
    expect(res.body.user).not.toHaveProperty('passwordHash');
    expect(res.body.user).not.toHaveProperty('postsCount');
  });

  it('lists the own blocks newest first, the same on /users/me and on the own profile', async () => {
    const [u, x, y, z] = [await makeUser(), await makeUser(), await makeUser(), await makeUser()];
    for (const other of [x, y, z]) await block(u, other);
    // Being blocked by someone is not one's own block: it never shows in blocked_users.
    const w = await makeUser();
    await block(w, u);
    const mine = await call(me, 'GET /users/me', { token: u.token });
    expect(mine.body.user.blocked_users).toEqual([z.id, y.id, x.id]);
    const own = await call(profile, 'GET /users/{identifier}', { token: u.token, params: { identifier: u.id } });
    expect(own.body.user.blocked_users).toEqual([z.id, y.id, x.id]);
  });

  it('answers 401 with WWW-Authenticate when the account no longer exists', async () => {
    const u = await makeUser();
    await db.send(new DeleteCommand({ TableName: TABLE, Key: keys.user(u.id) }));
    const res = await call(me, 'GET /users/me', { token: u.token });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.body).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
  });
});

describe('GET /users/{identifier}', () => {
  it('finds a user by id, by username and by username in any case, without private fields', async () => {
    const [a, b] = [await makeUser(), await makeUser()];
    for (const identifier of [b.id, b.id.toLowerCase(), b.username, b.username.toUpperCase()]) {
      const res = await call(profile, 'GET /users/{identifier}', { token: a.token, params: { identifier } });
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({
        _id: b.id, username: b.username, isFollowing: false, isBlocked: false, postsCount: 0, followersCount: 0, followingCount: 0,
      });
      for (const f of PRIVATE) expect(res.body.user).not.toHaveProperty(f);
    }
  });

  it('shows the own profile with private fields and both flags false', async () => {
    const a = await makeUser();
    const res = await call(profile, 'GET /users/{identifier}', { token: a.token, params: { identifier: a.username } });
    expect(res.body.user).toMatchObject({ _id: a.id, email: a.email, isFollowing: false, isBlocked: false });
  });

  it('answers 404 for an unknown user and for a user who blocked the caller, 200 with isBlocked to the blocker', async () => {
    const [a, b] = [await makeUser(), await makeUser()];
    const unknown = await call(profile, 'GET /users/{identifier}', { token: a.token, params: { identifier: uniq('ghost') } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('NOT_FOUND');
    // b blocks a (the edge as the graph endpoints write it).
    const at = new Date().toISOString();
    for (const Item of [blockEdge(b.id, a.id, at), blockMirror(b.id, a.id, at)]) await db.send(new PutCommand({ TableName: TABLE, Item }));
    const hidden = await call(profile, 'GET /users/{identifier}', { token: a.token, params: { identifier: b.id } });
    expect(hidden.status).toBe(404);
    const blocker = await call(profile, 'GET /users/{identifier}', { token: b.token, params: { identifier: a.id } });
    expect(blocker.status).toBe(200);
    expect(blocker.body.user.isBlocked).toBe(true);
  });

  it('refuses a malformed identifier with 400', async () => {
    const a = await makeUser();
    const res = await call(profile, 'GET /users/{identifier}', { token: a.token, params: { identifier: 'USER#x' } });
    expect(res.status).toBe(400);
    expect(res.body.details[0].path).toBe('identifier');
  });
});

describe('POST /users/profile/edit', () => {
  it('names a wrong type as such, not as missing (null included), and changes nothing', async () => {
    const u = await makeUser();
    const res = await call(edit, 'POST /users/profile/edit', { token: u.token, body: { bio: null, name: 123, gender: ['x'] } });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual(expect.arrayContaining([
      { path: 'bio', message: 'must be a string' },
      { path: 'name', message: 'must be a string' },
      { path: 'gender', message: 'must be a string' },
    ]));
    expect(res.body.details).toHaveLength(3);
  });

  it('applies a partial update and moves updatedAt forward', async () => {
    const u = await makeUser({ name: 'Old Name' });
    const before = (await call(me, 'GET /users/me', { token: u.token })).body.user;
    const res = await call(edit, 'POST /users/profile/edit', { token: u.token, body: { bio: '  Hello 👋 ', gender: 'she/her' } });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Profile updated successfully');
    expect(res.body.user).toMatchObject({ bio: 'Hello 👋', gender: 'she/her', name: 'Old Name', email: u.email });
    expect(res.body.user.updatedAt > before.updatedAt).toBe(true);
    const after = (await call(me, 'GET /users/me', { token: u.token })).body.user;
    expect(after).toMatchObject({ bio: 'Hello 👋', gender: 'she/her' });
  });

  it('clears gender and image with ""', async () => {
    const u = await makeUser();
    await call(edit, 'POST /users/profile/edit', { token: u.token, body: { gender: 'x', image: 'https://cdn.example.test/a.png' } });
    const res = await call(edit, 'POST /users/profile/edit', { token: u.token, body: { gender: '', image: '' } });
    expect(res.body.user).toMatchObject({ gender: '', image: '' });
  });

  it('trims a profile image before it is checked: spaces around a URL go, spaces alone are ""', async () => {
    const u = await makeUser();
    const set = await call(edit, 'POST /users/profile/edit', { token: u.token, body: { image: '  https://cdn.example.test/b.png\n' } });
    expect({ status: set.status, image: set.body.user?.image }).toEqual({ status: 200, image: 'https://cdn.example.test/b.png' });
    const cleared = await call(edit, 'POST /users/profile/edit', { token: u.token, body: { image: '   ' } });
    expect({ status: cleared.status, image: cleared.body.user?.image }).toEqual({ status: 200, image: '' });
  });

  it('changes the username atomically: the old one is free, the new one taken, search follows', async () => {
    const [u, other] = [await makeUser({ name: 'Grace Hopper' }), await makeUser()];
    const newName = uniq('new');
    const res = await call(edit, 'POST /users/profile/edit', { token: u.token, body: { username: newName.toUpperCase(), name: 'Grace Brewster' } });
    expect(res.status).toBe(200);
    expect(res.body.user.username).toBe(newName);
    expect(await getItem(keys.username(u.username))).toBeUndefined();
    expect((await getItem(keys.username(newName)))?.userId).toBe(u.id);
    expect(await getItem(keys.search('U', u.username, u.id))).toBeUndefined();
    expect(await getItem(keys.search('U', newName, u.id))).toBeDefined();
    expect(await getItem(keys.search('N', 'hopper', u.id))).toBeUndefined();
    expect(await getItem(keys.search('N', 'brewster', u.id))).toBeDefined();
    expect(await getItem(keys.search('N', 'grace', u.id))).toBeDefined();
    // Login works with the new name, not the old one.
    expect((await call(login, 'POST /auth/login', { body: { identifier: newName, password: u.password } })).status).toBe(200);
    expect((await call(login, 'POST /auth/login', { body: { identifier: u.username, password: u.password } })).status).toBe(401);

    const taken = await call(edit, 'POST /users/profile/edit', { token: other.token, body: { username: newName, bio: 'changed?' } });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('USERNAME_TAKEN');
    const otherNow = (await call(me, 'GET /users/me', { token: other.token })).body.user;
    expect(otherNow.bio).toBe('');
    expect(otherNow.username).toBe(other.username);
  });

  it.each([
    [{}, 'body'],
    [{ email: 'x@example.test' }, 'email'],
    [{ followers: [] }, 'followers'],
    [{ name: '' }, 'name'],
    [{ name: 'x'.repeat(65) }, 'name'],
    [{ bio: 'b'.repeat(151) }, 'bio'],
    [{ gender: 'g'.repeat(33) }, 'gender'],
    [{ image: 'javascript:alert(1)' }, 'image'],
    [{ username: 'me' }, 'username'],
    [{ bio: 42 }, 'bio'],
  ])('refuses %j naming %s, changing nothing', async (body, path) => {
    const u = await makeUser();
    const before = await getItem(keys.user(u.id));
    const res = await call(edit, 'POST /users/profile/edit', { token: u.token, body });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(await getItem(keys.user(u.id))).toEqual(before);
  });

  it('keeps concurrent edits consistent: the final user and its search items agree', async () => {
    const u = await makeUser({ name: 'Start Name' });
    const names = Array.from({ length: 6 }, (_, i) => `Racer${i} Person${i}`);
    const results = await Promise.all(names.map((name) => call(edit, 'POST /users/profile/edit', { token: u.token, body: { name } })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const final = (await call(me, 'GET /users/me', { token: u.token })).body.user.name as string;
    expect(names).toContain(final);
    const nameItems = (await Promise.all(['racer', 'person', 'start', 'name'].map(async (w) => {
      const items = await queryAll(`SEARCH#N#${w[0]}`);
      return items.filter((i) => i.userId === u.id && String(i.term).startsWith(w));
    }))).flat().map((i) => i.term).sort();
    expect(nameItems).toEqual(final.toLowerCase().split(' ').sort());
  });
});
