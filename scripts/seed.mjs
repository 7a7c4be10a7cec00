#!/usr/bin/env node
// `npm run seed [-- --posts 300]`: demo users, follows, posts, comments, replies and likes
// in the running local stack, made through the public API like any client would. Safe to
// run twice: existing demo users log in instead of registering, and a demo username that
// someone else took with another password is skipped.
import { localStack } from './lib/local-stack.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => { const i = args.indexOf(name); return i >= 0 ? Number(args[i + 1]) : fallback; };
const POSTS = opt('--posts', 300);
const PASSWORD = 'aperture-demo';
const base = localStack().baseUrl;

const DEMO = [
  ['ada', 'Ada Lovelace'], ['grace', 'Grace Hopper'], ['alan', 'Alan Turing'], ['katherine', 'Katherine Johnson'],
  ['linus', 'Linus Torvalds'], ['margaret', 'Margaret Hamilton'], ['dennis', 'Dennis Ritchie'], ['barbara', 'Barbara Liskov'],
];
const FOLLOWS = [['ada', 'grace'], ['ada', 'alan'], ['grace', 'ada'], ['alan', 'katherine'], ['katherine', 'margaret'],
  ['linus', 'dennis'], ['dennis', 'barbara'], ['barbara', 'ada'], ['margaret', 'grace'], ['grace', 'linus']];

async function api(method, path, { token, body } = {}) {
  const res = await fetch(base + path, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}), 'x-scenario-id': 'seed' },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json().catch(() => null);
  if (!res.ok && res.status !== 409 && !(path === '/auth/login' && res.status === 401)) {
    throw new Error(`${method} ${path}: ${res.status} ${json?.message ?? ''} (${json?.code ?? 'no code'})`);
  }
  return { status: res.status, body: json };
}

async function account(username, name) {
  const reg = await api('POST', '/auth/register', { body: { name, username, email: `${username}@example.com`, password: PASSWORD } });
  if (reg.status === 201) return { username, id: reg.body.user._id, token: reg.body.token };
  const login = await api('POST', '/auth/login', { body: { identifier: username, password: PASSWORD } });
  if (login.status !== 200) {
    process.stderr.write(`@${username} exists with another password: left out of the demo data.\n`);
    return undefined;
  }
  return { username, id: login.body.user._id, token: login.body.token };
}

async function inBatches(items, size, fn) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

async function seed() {
  const users = Object.fromEntries((await Promise.all(DEMO.map(async ([u, n]) => [u, await account(u, n)]))).filter(([, a]) => a));
  await inBatches(FOLLOWS.filter(([a, b]) => users[a] && users[b]), 5, ([a, b]) => api('POST', `/users/follow/${b}`, { token: users[a].token }));

  const authors = Object.values(users);
  const posts = [];
  await inBatches(Array.from({ length: POSTS }, (_, i) => i), 10, async (i) => {
    const author = authors[i % authors.length];
    const image = JSON.stringify([`https://picsum.photos/seed/aperture-${i}/1080/1080`]);
    const res = await api('POST', '/posts/create', { token: author.token, body: { image, caption: `Demo post #${i + 1} by @${author.username}` } });
    posts.push({ id: res.body.post._id, author });
  });

  let comments = 0;
  let likes = 0;
  await inBatches(posts.slice(0, 40), 5, async (p) => {
    const commenter = authors[(authors.indexOf(p.author) + 1) % authors.length];
    const c = await api('POST', `/comments/create/${p.id}`, { token: commenter.token, body: { text: 'Lovely shot!' } });
    await api('POST', `/comments/reply/${c.body.comment._id}`, { token: p.author.token, body: { text: 'Thank you!' } });
    comments += 2;
    for (const liker of authors.slice(0, 3)) {
      if (liker !== p.author) { await api('POST', `/posts/like/${p.id}`, { token: liker.token }); likes++; }
    }
  });

  const follows = FOLLOWS.filter(([a, b]) => users[a] && users[b]).length;
  process.stdout.write(`Seeded ${authors.length} users, ${follows} follows, ${posts.length} posts, ${comments} comments and replies, ${likes} likes at ${base}.\n`);
  process.stdout.write(`Every demo user's password is "${PASSWORD}"; e.g. TOKEN=$(npm run -s token -- ada)\n`);
}

try {
  await seed();
} catch (err) {
  process.stderr.write(`Seeding stopped: ${err.message}\nIs \`npm start\` running at ${base}?\n`);
  process.exit(1);
}
