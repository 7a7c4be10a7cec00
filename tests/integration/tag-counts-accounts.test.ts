// A tag's postsCount follows its posts' accounts (contract section 19): going private,
// suspension take an account's posts out; going public, unsuspension put them back, through
// the recount job (lib/tags/recount.ts), with the real change stream.
import '../support/own-stream-table';
import { setPrivate as setPrivateRoute } from '../support/private';
import { call } from '../support/invoke';
import { users } from '../support/posts';
import { changeRecord, eventually, startTestStream, type TestStream } from '../support/stream';
import type { TestUser } from '../support/factories';
import * as keys from '../../lib/keys';
import { suspendAccount, unsuspendAccount } from '../../lib/account/suspend';
import { getUser } from '../../lib/users/repo';
import { tagEntryItem } from '../../lib/tags/entries';
import { tagPostsCount } from '../../lib/tags/counts';
import { STEP_POSTS } from '../../lib/tags/recount';
import { TAG_RECOUNT_KIND } from '../../lib/tags/recount-job';
import { handler as consumer } from '../../functions/events/stream';
import { handler as create } from '../../functions/posts/create';
import { handler as tagH } from '../../functions/tags/get';
import { handler as searchH } from '../../functions/tags/search';
import { getItem } from '../support/db';
import { computeTrends } from '../../lib/tags/trends';
import { handler as deleteMe } from '../../functions/users/delete';

let stream: TestStream;
beforeAll(() => { stream = startTestStream(); });
afterAll(() => stream.poller.stop());
afterEach(() => expect(stream.deadLetters).toEqual([]));

let seq = 0;
const uniqTag = () => `r${Date.now().toString(36)}${(seq++).toString(36)}`;
const post = async (u: TestUser, caption: string): Promise<string> => {
  const res = await call(create, 'POST /posts/create', { token: u.token, body: { image: `https://cdn.example.test/r${++seq}.jpg`, caption } });
  expect(res.status).toBe(201);
  return res.body.post._id;
};
const count = async (u: TestUser, tag: string) => {
  const res = await call(tagH, 'GET /tags/{tag}', { token: u.token, params: { tag } });
  expect(res.status).toBe(200);
  return (res.body.tag as { postsCount: number }).postsCount;
};
const searched = async (u: TestUser, tag: string) => {
  const res = await call(searchH, 'GET /tags', { token: u.token, query: { query: tag } });
  expect(res.status).toBe(200);
  return (res.body.tags as { name: string; postsCount: number }[]).find((t) => t.name === tag)?.postsCount ?? 0;
};
/** postsCount and GET /tags both at n, and the account's recount job done (its item gone). */
const settlesAt = async (u: TestUser, tag: string, n: number, owner: TestUser) => {
  await eventually(async () => [await count(u, tag), await searched(u, tag), await getItem(keys.job(TAG_RECOUNT_KIND, owner.id))] as const,
    ([c, s, job]) => c === n && s === n && job === undefined, 20_000);
  expect(await count(u, tag)).toBe(n);
  expect(await searched(u, tag)).toBe(n);
};
const setPrivate = async (u: TestUser, isPrivate: boolean) => expect((await setPrivateRoute(u, isPrivate)).status).toBe(200);
const trace = (stepId: string) => ({ traceId: `tag-recount-${stepId}`, scenarioId: 'test', stepId, simTimestamp: Date.now() });

describe('postsCount when an account changes', () => {
  it('uncounts the posts of an account going private and counts them again, those written meanwhile too, when it goes public', async () => {
    const [a, b] = await users(2);
    const tag = uniqTag();
    // More posts than one step reads: the job goes on over several steps.
    for (let i = 0; i < STEP_POSTS + 2; i++) await post(a, `n${i} #${tag}`);
    await post(b, `#${tag}`);
    await settlesAt(b, tag, STEP_POSTS + 3, a);
    await setPrivate(a, true);
    await settlesAt(b, tag, 1, a);
    // Written while private: not counted now, counted once public.
    await post(a, `late #${tag}`);
    await post(b, `#${tag}`);
    await settlesAt(b, tag, 2, a);
    await setPrivate(a, false);
    await settlesAt(b, tag, STEP_POSTS + 5, a);
  });

  it('uncounts the posts of a suspended account and counts them again when it is unsuspended', async () => {
    const [a, b, moderator] = await users(3);
    const tag = uniqTag();
    await post(a, `#${tag} #${tag}y`);
    await post(a, `#${tag}`);
    await post(b, `#${tag}`);
    await settlesAt(b, tag, 3, a);
    expect(await suspendAccount((await getUser(a.id))!, moderator.id, trace(`s-${a.id}`), {})).toBe(true);
    await settlesAt(b, tag, 1, a);
    expect(await searched(b, `${tag}y`)).toBe(0);
    expect(await unsuspendAccount((await getUser(a.id))!, moderator.id, trace(`u-${a.id}`), {})).toBe(true);
    await settlesAt(b, tag, 3, a);
    expect(await searched(b, `${tag}y`)).toBe(1);
  });

  it('changes nothing when a job step or an entry is delivered again', async () => {
    const [a, b] = await users(2);
    const tag = uniqTag();
    const p1 = await post(a, `#${tag}`);
    await post(b, `#${tag}`);
    await settlesAt(b, tag, 2, a);
    await setPrivate(a, true);
    await settlesAt(b, tag, 1, a);
    // The job's first step again, and the private account's entry again: nothing moves.
    const job = { ...keys.job(TAG_RECOUNT_KIND, a.id), type: 'JOB', kind: TAG_RECOUNT_KIND, id: a.id, params: { userId: a.id }, cursor: '', steps: 0, createdAt: new Date().toISOString() };
    const entry = { ...tagEntryItem(tag, p1, a.id, true) };
    const again = async (n: number) => {
      for (const record of [changeRecord('INSERT', entry), changeRecord('INSERT', job)]) {
        expect(await consumer({ Records: [record] } as never)).toEqual({ batchItemFailures: [] });
        expect(await tagPostsCount(tag)).toBe(n);
      }
    };
    await again(1);
    await setPrivate(a, false);
    await settlesAt(b, tag, 2, a);
    await again(2);
  });

  it('uncounts the posts of a deleted account', async () => {
    const [a, b] = await users(2);
    const tag = uniqTag();
    await post(a, `#${tag}`);
    await post(b, `#${tag}`);
    await settlesAt(b, tag, 2, a);
    expect((await call(deleteMe, 'DELETE /users/me', { token: a.token, body: { password: a.password } })).status).toBe(200);
    await settlesAt(b, tag, 1, a);
  });
});

describe('trending when an account changes', () => {
  const authors = async (tag: string) => (await computeTrends(Date.now())).find((t) => t.name === tag)?.authors ?? 0;
  const authorsAre = (tag: string, n: number) => eventually(() => authors(tag), (x) => x === n, 20_000);

  it('takes out an account going private or suspended and puts it back when it goes public or is unsuspended', async () => {
    const [a, b, c, d, moderator] = await users(5);
    const tag = uniqTag();
    for (const u of [a, b, c, d]) await post(u, `#${tag}`);
    await authorsAre(tag, 4);
    await setPrivate(a, true);
    await authorsAre(tag, 3);
    expect(await suspendAccount((await getUser(b.id))!, moderator.id, trace(`s-${b.id}`), {})).toBe(true);
    // Fewer than 3 accounts: no longer trending.
    await authorsAre(tag, 0);
    await setPrivate(a, false);
    await authorsAre(tag, 3);
    expect(await unsuspendAccount((await getUser(b.id))!, moderator.id, trace(`u-${b.id}`), {})).toBe(true);
    await authorsAre(tag, 4);
  });

  it('takes out a deleted account', async () => {
    const [a, b, c, d] = await users(4);
    const tag = uniqTag();
    for (const u of [a, b, c, d]) await post(u, `#${tag}`);
    await authorsAre(tag, 4);
    expect((await call(deleteMe, 'DELETE /users/me', { token: a.token, body: { password: a.password } })).status).toBe(200);
    await authorsAre(tag, 3);
  });
});
