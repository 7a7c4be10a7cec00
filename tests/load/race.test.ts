// Concurrency: uniqueness under racing claims, concurrent edits of one profile (last writer
// wins, the search index follows exactly), a mixed load on the accounts, and a mixed load
// across the graph, posts and comments. (Ten creates with one Idempotency-Key are in
// posts.test.ts and comments-create.test.ts.)
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { call, type CallResult } from '../support/invoke';
import { inFlight } from '../support/concurrency';
import { makeUser, makeUsers, uniq } from '../support/factories';
import { getItem, queryAll } from '../support/db';
import { db, TABLE } from '../../lib/db/client';
import * as keys from '../../lib/keys';
import { searchTerms } from '../../lib/users/search-terms';
import { handler as register } from '../../functions/auth/register';
import { handler as login } from '../../functions/auth/login';
import { handler as me } from '../../functions/users/me';
import { handler as profile } from '../../functions/users/profile';
import { handler as edit } from '../../functions/users/edit';
import { handler as trace } from '../../functions/logs/trace';
import type { TestUser } from '../support/factories';
import { counters, edgeCounts, follow, followers, unfollow } from '../support/graph';
import { comment, comments as listComments, countThread, gsi1, reply } from '../support/comment-api';
import { handler as createPost } from '../../functions/posts/create';
import { handler as getPost } from '../../functions/posts/get';
import { handler as deletePost } from '../../functions/posts/delete';
import { handler as likePost } from '../../functions/posts/like';
import { handler as unlikePost } from '../../functions/posts/unlike';
import { handler as bookmarkPost } from '../../functions/posts/bookmark';
import { handler as unbookmarkPost } from '../../functions/posts/unbookmark';
import { handler as exploreH } from '../../functions/posts/explore';
import { handler as repliesOf } from '../../functions/comments/replies';
import { handler as likeComment } from '../../functions/comments/like';
import { handler as unlikeComment } from '../../functions/comments/unlike';
import { handler as deleteComment } from '../../functions/comments/delete';

const explore = (u: TestUser) => call(exploreH, 'GET /posts/explore', { token: u.token });

/** Search index items of a user under one partition (kind and first character of the term). */
async function searchItemsOf(userId: string, kind: 'U' | 'N', term: string): Promise<string[]> {
  const res = await db.send(new QueryCommand({
    TableName: TABLE, KeyConditionExpression: 'PK = :pk', FilterExpression: 'userId = :u',
    ExpressionAttributeValues: { ':pk': keys.searchPartition(kind, term), ':u': userId }, ConsistentRead: true,
  }));
  return (res.Items ?? []).map((i) => String(i.term));
}

const statuses = (rs: CallResult[]) => rs.map((r) => r.status).sort();

it('ten registrations claiming one username: one 201, nine 409 USERNAME_TAKEN, one account', async () => {
  const username = uniq('claim');
  const emails = Array.from({ length: 10 }, () => `${uniq('e')}@example.test`);
  const rs = await Promise.all(emails.map((email) => call(register, 'POST /auth/register', { body: { name: 'Claimer', username, email, password: 'password1' } })));
  expect(statuses(rs)).toEqual([201, ...Array(9).fill(409)]);
  expect(rs.filter((r) => r.status === 409).map((r) => r.body.code)).toEqual(Array(9).fill('USERNAME_TAKEN'));
  const winner = rs.find((r) => r.status === 201)!;
  expect((await getItem(keys.username(username)))!.userId).toBe(winner.body.user._id);
  // The losers left no e-mail claim behind.
  const claims = await Promise.all(emails.map((e) => getItem(keys.email(e))));
  expect(claims.filter(Boolean).map((c) => c!.userId)).toEqual([winner.body.user._id]);
});

it('ten accounts renaming to one username at once: one 200, nine 409, the others keep theirs', async () => {
  const users = await makeUsers(10);
  const username = uniq('want');
  const rs = await Promise.all(users.map((u) => call(edit, 'POST /users/profile/edit', { token: u.token, body: { username } })));
  expect(statuses(rs)).toEqual([...Array(1).fill(200), ...Array(9).fill(409)]);
  const winner = users[rs.findIndex((r) => r.status === 200)]!;
  expect((await getItem(keys.username(username)))!.userId).toBe(winner.id);
  for (const u of users.filter((x) => x !== winner)) {
    expect((await getItem(keys.user(u.id)))!.username).toBe(u.username);
    expect((await getItem(keys.username(u.username)))!.userId).toBe(u.id);
  }
  expect(await getItem(keys.username(winner.username))).toBeUndefined();
});

it('twenty registrations with one e-mail: one account, no stray username claims', async () => {
  const email = `${uniq('same')}@example.test`;
  const usernames = Array.from({ length: 20 }, () => uniq('r'));
  const rs = await Promise.all(usernames.map((username) => call(register, 'POST /auth/register', { body: { name: 'Racer', username, email, password: 'password1' } })));
  expect(statuses(rs)).toEqual([201, ...Array(19).fill(409)]);
  expect(rs.filter((r) => r.status === 409).every((r) => r.body.code === 'EMAIL_TAKEN')).toBe(true);
  const winner = rs.find((r) => r.status === 201)!.body.user;
  expect((await getItem(keys.email(email)))!.userId).toBe(winner._id);
  const claimed = (await Promise.all(usernames.map((u) => getItem(keys.username(u))))).filter(Boolean);
  expect(claimed.map((c) => c!.userId)).toEqual([winner._id]);
});

it('ten concurrent edits of one profile: all answer, the last writer wins, the search index matches exactly', async () => {
  const u = await makeUser({ name: 'Original Person' });
  const edits = Array.from({ length: 10 }, (_, i) => ({ username: uniq(`ce${i}`), name: `Racer${i} Word${i}`, bio: `bio ${i}` }));
  const rs = await Promise.all(edits.map((body) => call(edit, 'POST /users/profile/edit', { token: u.token, body })));
  expect(statuses(rs)).toEqual(Array(10).fill(200));

  const item = (await getItem(keys.user(u.id)))!;
  const final = edits.find((e) => e.username === item.username)!;
  expect(final).toBeDefined();
  expect({ name: item.name, bio: item.bio }).toEqual({ name: final.name, bio: final.bio }); // one edit, whole
  // The answer with the latest updatedAt is the state that stayed.
  const latest = rs.map((r) => r.body.user).sort((a, b) => a.updatedAt.localeCompare(b.updatedAt)).pop();
  expect(latest.username).toBe(item.username);

  // Claims: the final username only; the original and every losing one freed.
  expect((await getItem(keys.username(item.username)))!.userId).toBe(u.id);
  for (const e of [...edits.filter((x) => x !== final), { username: u.username }]) expect(await getItem(keys.username(e.username))).toBeUndefined();

  // Search items: exactly the final name's and username's terms, no stale ones.
  const expected = searchTerms({ username: item.username, name: item.name });
  for (const t of expected) expect(await searchItemsOf(u.id, t.kind, t.term)).toContain(t.term);
  const stale = [...edits.filter((x) => x !== final), { username: u.username, name: 'Original Person' }];
  for (const e of stale) {
    for (const t of searchTerms({ username: e.username, name: e.name })) {
      if (expected.some((x) => x.kind === t.kind && x.term === t.term)) continue;
      expect({ t, found: await searchItemsOf(u.id, t.kind, t.term) }).toEqual({ t, found: expect.not.arrayContaining([t.term]) });
    }
  }
  // Every successful edit wrote its record.
  const records = await Promise.all(rs.map((r) => queryAll(keys.trace(r.headers['x-trace-id']!))));
  for (const rec of records) expect(rec.filter((x) => x.action && (x.action as { type: string }).type === 'PROFILE_UPDATED')).toHaveLength(1);
});

it('a mixed load of a few hundred requests: no 5xx, nothing lost', async () => {
  const users = await makeUsers(12);
  const rounds = 6;
  const reads: (() => Promise<CallResult>)[] = [];
  // Each user edits its bio in sequence (so the last bio is known) while reads, logins and
  // trace reads of everyone run alongside.
  const chains = users.map(async (u, i) => {
    const out: CallResult[] = [];
    for (let r = 0; r < rounds; r++) {
      out.push(await call(edit, 'POST /users/profile/edit', { token: u.token, body: { bio: `round ${r} of ${i}` } }));
    }
    return out;
  });
  // Every request here runs in this one process (in AWS each has its own container), so
  // logins, which spend ~scrypt time on purpose, are kept to one in twenty, and the 240 reads
  // run 24 at a time beside the 12 edit chains: started all at once they queued behind one
  // another at DynamoDB Local (a few hundred requests a second on 2 cores) until the last
  // ones outlived the 10 s a Lambda gets, on a loaded machine. 36 requests in flight still
  // race on the same 12 users.
  for (let k = 0; k < 240; k++) {
    const u = users[k % users.length]!;
    const other = users[(k * 7 + 3) % users.length]!;
    switch (k % 5) {
      case 0: reads.push(() => call(me, 'GET /users/me', { token: u.token })); break;
      case 1: reads.push(() => call(profile, 'GET /users/{identifier}', { token: u.token, params: { identifier: k % 2 ? other.id : other.username } })); break;
      case 2: reads.push(() => (k % 4 === 2
        ? call(login, 'POST /auth/login', { body: { identifier: u.email, password: u.password } })
        : call(me, 'GET /users/me', { token: u.token }))); break;
      case 3: reads.push(() => call(trace, 'GET /logs/trace/{traceId}', { token: u.token, params: { traceId: `none-${k}` } })); break;
      default: reads.push(() => call(edit, 'POST /users/profile/edit', { token: u.token, body: { zz: 1 } }));
    }
  }
  const [edited, done] = await Promise.all([Promise.all(chains), inFlight(24, reads)]);
  const all = [...edited.flat(), ...done];
  expect(all.length).toBeGreaterThanOrEqual(300);
  expect(all.filter((r) => r.status >= 500)).toEqual([]);
  expect(edited.flat().every((r) => r.status === 200)).toBe(true);
  expect(done.filter((_, k) => k % 5 === 3).every((r) => r.status === 404)).toBe(true);
  expect(done.filter((_, k) => k % 5 === 4).every((r) => r.status === 400)).toBe(true);
  expect(done.filter((_, k) => k % 5 < 3).every((r) => r.status === 200)).toBe(true);
  for (const [i, u] of users.entries()) expect((await getItem(keys.user(u.id)))!.bio).toBe(`round ${rounds - 1} of ${i}`);
});

// The graph, posts and comments endpoints under one concurrent load: follows, likes,
// bookmarks, comments, replies, creations, deletions and reads racing on a few users and
// posts, in bounded batches. Afterwards every counter equals its edge items and every
// record that was created and not deleted is there.
describe('a mixed load of a few hundred requests across the graph, posts and comments', () => {
  type Op = { run: () => Promise<CallResult>; /** ids whose deletion may make this a 404 */ on: string[]; done?: (r: CallResult) => void };
  const BATCHES = 12;
  const BATCH = 30;

  it('answers no 5xx, keeps every counter equal to its items, and loses nothing', async () => {
    const people = await makeUsers(8);
    let seed = 7;
    // A fixed pseudo-random sequence (the high bits of an LCG; its low bits cycle quickly).
    const rnd = (n: number) => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return (seed >>> 12) % n; };
    const pick = <T>(xs: T[]) => xs[rnd(xs.length)]!;

    // What exists, as the answers tell it: posts by author, comments by post, replies by comment.
    const posts = new Map<string, TestUser>();
    const comments = new Map<string, { post: string; parent?: string; author: TestUser }>();
    const deleted = new Set<string>(); // deletions issued (their answer may still be pending)
    const removed = new Set<string>(); // deletions answered 200
    const doomed = (id: string): boolean => {
      if (deleted.has(id)) return true;
      const c = comments.get(id);
      return !!c && (doomed(c.post) || (!!c.parent && doomed(c.parent)));
    };
    const newPost = (u: TestUser) => call(createPost, 'POST /posts/create', { token: u.token, body: { image: 'https://cdn.example.test/load.jpg', caption: 'load' } });
    for (const res of await Promise.all(people.map(async (u) => [u, await newPost(u)] as const))) {
      expect(res[1].status).toBe(201);
      posts.set(res[1].body.post._id, res[0]);
    }

    const livePosts = () => [...posts.keys()].filter((p) => !deleted.has(p));
    const liveComments = (top: boolean) => [...comments.keys()].filter((c) => !doomed(c) && !comments.get(c)!.parent === top);
    const onPost = (u: TestUser, handler: Parameters<typeof call>[0], route: string, postId: string): Op =>
      ({ run: () => call(handler, route, { token: u.token, params: { post_id: postId } }), on: [postId] });
    const onComment = (u: TestUser, handler: Parameters<typeof call>[0], route: string, commentId: string): Op =>
      ({ run: () => call(handler, route, { token: u.token, params: { comment_id: commentId } }), on: [commentId] });

    function nextOp(): Op {
      const u = pick(people);
      const v = pick(people.filter((x) => x !== u));
      const post = pick(livePosts());
      const top = liveComments(true);
      const mine = (xs: string[]) => xs.filter((c) => comments.get(c)!.author === u);
      switch (rnd(20)) {
        case 0: case 1: return { run: () => follow(u, v), on: [] };
        case 2: return { run: () => unfollow(u, v), on: [] };
        case 3: case 4: return onPost(u, likePost, 'POST /posts/like/{post_id}', post);
        case 5: return onPost(u, unlikePost, 'POST /posts/unlike/{post_id}', post);
        case 6: return onPost(u, bookmarkPost, 'POST /posts/bookmark/{post_id}', post);
        case 7: return onPost(u, unbookmarkPost, 'POST /posts/unbookmark/{post_id}', post);
        case 8: case 9: return { run: () => comment(u, post, 'load comment'), on: [post], done: (r) => { if (r.status === 201) comments.set(r.body.comment._id, { post, author: u }); } };
        case 10: case 11: {
          if (!top.length) return onPost(u, getPost, 'GET /posts/{post_id}', post);
          const parent = pick(top);
          const p = comments.get(parent)!.post;
          return { run: () => reply(u, parent, { text: 'load reply' }), on: [parent], done: (r) => { if (r.status === 201) comments.set(r.body.data._id, { post: p, parent, author: u }); } };
        }
        case 12: return top.length ? onComment(u, likeComment, 'POST /comments/like/{comment_id}', pick(top)) : { run: () => explore(u), on: [] };
        case 13: return top.length ? onComment(u, unlikeComment, 'POST /comments/unlike/{comment_id}', pick(top)) : { run: () => explore(u), on: [] };
        case 14: return { run: () => newPost(u), on: [], done: (r) => { if (r.status === 201) posts.set(r.body.post._id, u); } };
        case 15: {
          const own = livePosts().filter((p) => posts.get(p) === u);
          // Keep a few posts alive so there is something to race on.
          if (own.length < 2) return onPost(u, getPost, 'GET /posts/{post_id}', post);
          const p = pick(own);
          deleted.add(p);
          return { ...onPost(u, deletePost, 'DELETE /posts/{post_id}', p), done: (r) => { if (r.status === 200) removed.add(p); } };
        }
        case 16: {
          const own = mine(liveComments(true).concat(liveComments(false)));
          if (!own.length) return { run: () => listComments(u, post), on: [post] };
          const c = pick(own);
          deleted.add(c);
          return { ...onComment(u, deleteComment, 'DELETE /comments/{comment_id}', c), done: (r) => { if (r.status === 200) removed.add(c); } };
        }
        case 17: return { run: () => listComments(u, post), on: [post] };
        case 18: return top.length ? onComment(u, repliesOf, 'GET /comments/replies/{comment_id}', pick(top)) : { run: () => explore(u), on: [] };
        default: return rnd(2) ? onPost(u, getPost, 'GET /posts/{post_id}', post) : { run: () => followers(u, v), on: [] };
      }
    }

    const answers: { op: Op; res: CallResult }[] = [];
    for (let b = 0; b < BATCHES; b++) {
      const ops = Array.from({ length: BATCH }, nextOp);
      const results = await Promise.all(ops.map((op) => op.run()));
      ops.forEach((op, i) => { op.done?.(results[i]!); answers.push({ op, res: results[i]! }); });
    }
    expect(answers.length).toBe(BATCHES * BATCH);
    expect(answers.filter((a) => a.res.status >= 500).map((a) => a.res.text)).toEqual([]);
    // Only a deletion (issued before or alongside) may turn a request into a 404; nothing else fails.
    const unexpected = answers.filter(({ op, res }) => res.status >= 300 && !(res.status === 404 && op.on.some(doomed)));
    expect(unexpected.map((a) => `${a.res.status} ${a.res.text}`)).toEqual([]);

    // Counters equal their items: follows, posts, likes, comments and replies.
    for (const u of people) {
      const { followersCount, followingCount } = await counters(u);
      const edges = await edgeCounts(u);
      expect({ user: u.id, followersCount, followingCount }).toEqual({ user: u.id, followersCount: edges.followersCount, followingCount: edges.followingCount });
      const own = (await gsi1(keys.postsOf(u.id))).length;
      expect({ user: u.id, postsCount: Number((await getItem(keys.user(u.id)))!.postsCount) }).toEqual({ user: u.id, postsCount: own });
    }
    const likeItems = async (pk: string) => (await queryAll(pk)).filter((i) => String(i.SK).startsWith('LIKE#')).length;
    await Promise.all([...posts.keys()].filter((x) => !removed.has(x)).map(async (p) => {
      const item = (await getItem(keys.post(p)))!;
      expect(item).toBeDefined(); // nothing lost: every post not deleted is there
      const thread = await countThread(p);
      expect({ post: p, likesCount: Number(item.likesCount ?? 0), commentsCount: Number(item.commentsCount ?? 0) })
        .toEqual({ post: p, likesCount: await likeItems(keys.post(p).PK), commentsCount: thread.total });
      for (const [c, n] of thread.repliesOf) {
        const ci = (await getItem(keys.comment(c)))!;
        expect({ comment: c, repliesCount: Number(ci.repliesCount ?? 0), likesCount: Number(ci.likesCount ?? 0) })
          .toEqual({ comment: c, repliesCount: n, likesCount: await likeItems(keys.comment(c).PK) });
      }
    }));
    // Every comment and reply whose creation was answered 201 is there unless it, its parent or its post was deleted.
    for (const c of [...comments.keys()].filter((x) => !doomed(x))) expect({ c, item: !!(await getItem(keys.comment(c))) }).toEqual({ c, item: true });
    // Every deletion answered 200 took its record.
    for (const id of removed) expect(await getItem(posts.has(id) ? keys.post(id) : keys.comment(id))).toBeUndefined();
    expect(removed.size).toBeGreaterThan(0);
    expect(comments.size).toBeGreaterThan(20);
  });
});
