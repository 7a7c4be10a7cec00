// Concurrency on what exists today: uniqueness under racing claims, concurrent edits of one
// profile (last writer wins, the search index follows exactly), and a mixed load.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { call, type CallResult } from '../support/invoke';
import { makeUser, makeUsers, uniq } from '../support/factories';
import { getItem, queryAll } from '../support/db';
import { db, TABLE } from '../../lib/db/client';
import { keys } from '../../lib/keys';
import { searchTerms } from '../../lib/users/search-terms';
import { handler as register } from '../../functions/auth/register';
import { handler as login } from '../../functions/auth/login';
import { handler as me } from '../../functions/users/me';
import { handler as profile } from '../../functions/users/profile';
import { handler as edit } from '../../functions/users/edit';
import { handler as trace } from '../../functions/logs/trace';

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
  const reads: Promise<CallResult>[] = [];
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
  // logins, which spend ~scrypt time on purpose, are kept to one in twenty.
  for (let k = 0; k < 240; k++) {
    const u = users[k % users.length]!;
    const other = users[(k * 7 + 3) % users.length]!;
    switch (k % 5) {
      case 0: reads.push(call(me, 'GET /users/me', { token: u.token })); break;
      case 1: reads.push(call(profile, 'GET /users/{identifier}', { token: u.token, params: { identifier: k % 2 ? other.id : other.username } })); break;
      case 2: reads.push(k % 4 === 2
        ? call(login, 'POST /auth/login', { body: { identifier: u.email, password: u.password } })
        : call(me, 'GET /users/me', { token: u.token })); break;
      case 3: reads.push(call(trace, 'GET /logs/trace/{traceId}', { token: u.token, params: { traceId: `none-${k}` } })); break;
      default: reads.push(call(edit, 'POST /users/profile/edit', { token: u.token, body: { zz: 1 } }));
    }
  }
  const [edited, done] = await Promise.all([Promise.all(chains), Promise.all(reads)]);
  const all = [...edited.flat(), ...done];
  expect(all.length).toBeGreaterThanOrEqual(300);
  expect(all.filter((r) => r.status >= 500)).toEqual([]);
  expect(edited.flat().every((r) => r.status === 200)).toBe(true);
  expect(done.filter((_, k) => k % 5 === 3).every((r) => r.status === 404)).toBe(true);
  expect(done.filter((_, k) => k % 5 === 4).every((r) => r.status === 400)).toBe(true);
  expect(done.filter((_, k) => k % 5 < 3).every((r) => r.status === 200)).toBe(true);
  for (const [i, u] of users.entries()) expect((await getItem(keys.user(u.id)))!.bio).toBe(`round ${rounds - 1} of ${i}`);
});
