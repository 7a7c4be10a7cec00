// Idempotency-Key as the contract (section 8) and the IETF draft describe it: a key is bound
// to its user, method, path and body; another request under a used key is a 422; a repeat
// while the first is answered is a 409; a failed first request does not hold the key; an
// in-flight marker left by a dead Lambda expires.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { call } from '../support/invoke';
import { getItem } from '../support/db';
import { users } from '../support/posts';
import { comment, gsi1, postItem } from '../support/comment-api';
import { block, unblock } from '../support/graph';
import { handler as create } from '../../functions/posts/create';
import { db, TABLE } from '../../lib/db/client';
import * as keys from '../../lib/keys';
import { newId } from '../../lib/ids';
import { fingerprint, IN_FLIGHT_SECONDS } from '../../lib/http/idempotency';

const image = JSON.stringify(['https://cdn.example.test/idem.jpg']);
const post = (token: string, key: string, caption = 'idem') =>
  call(create, 'POST /posts/create', { token, headers: { 'Idempotency-Key': key }, body: { image, caption } });
const postsCount = async (userId: string) => Number((await getItem(keys.user(userId)))!.postsCount);

describe('Idempotency-Key', () => {
  it('replays the first answer (status and body) to the same request, and creates once', async () => {
    const [u] = await users(1);
    const first = await post(u.token, `k-${u.id}`);
    expect(first.status).toBe(201);
    const again = await post(u.token, `k-${u.id}`);
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(await postsCount(u.id)).toBe(1);
    expect(await getItem(keys.idempotency(u.id, `k-${u.id}`))).toMatchObject({ state: 'done', status: 201 });
  });

  it('a key used on POST /posts/create and then on POST /comments/create/{id} is 422 IDEMPOTENCY_KEY_REUSED; no comment is made', async () => {
    const [u] = await users(1);
    const key = `cross-${u.id}`;
    const created = await post(u.token, key);
    expect(created.status).toBe(201);
    const res = await comment(u, created.body.post._id, 'hello', { headers: { 'Idempotency-Key': key } });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await gsi1(keys.commentsOf(created.body.post._id))).toHaveLength(0);
    expect((await postItem(created.body.post._id))!.commentsCount).toBe(0);
  });

  it('the same key with another body, or the same route on another path, is 422 and creates nothing', async () => {
    const [u, author] = await users(2);
    expect((await post(u.token, `b-${u.id}`, 'first')).status).toBe(201);
    const otherBody = await post(u.token, `b-${u.id}`, 'second');
    expect([otherBody.status, otherBody.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect(await postsCount(u.id)).toBe(1);

    const [p1, p2] = [await post(author.token, `p1-${author.id}`), await post(author.token, `p2-${author.id}`)];
    const headers = { 'Idempotency-Key': `c-${u.id}` };
    expect((await comment(u, p1.body.post._id, 'same text', { headers })).status).toBe(201);
    const otherPath = await comment(u, p2.body.post._id, 'same text', { headers });
    expect([otherPath.status, otherPath.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect(await gsi1(keys.commentsOf(p2.body.post._id))).toHaveLength(0);
  });

  it('the body is compared as JSON: another key order or spacing is the same request', async () => {
    const [u] = await users(1);
    const key = `order-${u.id}`;
    const send = (rawBody: string) => call(create, 'POST /posts/create', { token: u.token, rawBody, headers: { 'Idempotency-Key': key, 'content-type': 'application/json' } });
    const first = await send(JSON.stringify({ image, caption: 'x' }));
    const second = await send(`{ "caption": "x",\n  "image": ${JSON.stringify(image)} }`);
    expect(second.status).toBe(201);
    expect(second.text).toBe(first.text);
    expect(await postsCount(u.id)).toBe(1);
  });

  it('a key is its user\'s: another user\'s same key is another request', async () => {
    const [a, b] = await users(2);
    const [ra, rb] = [await post(a.token, 'shared-key'), await post(b.token, 'shared-key')];
    expect([ra.status, rb.status]).toEqual([201, 201]);
    expect(ra.body.post._id).not.toBe(rb.body.post._id);
  });

  it('a repeat while the first is in flight is 409 IDEMPOTENCY_KEY_IN_USE; another request under that key is 422', async () => {
    const [u] = await users(1);
    const key = `flight-${u.id}`;
    // The marker a request in flight holds: the same fingerprint the server computes.
    const print = fingerprint('POST', '/posts/create', { image, caption: 'idem' });
    await db.send(new PutCommand({ TableName: TABLE, Item: {
      ...keys.idempotency(u.id, key), state: 'pending', fingerprint: print, lockId: 'another-request',
      expiresAt: Math.floor(Date.now() / 1000) + IN_FLIGHT_SECONDS,
    } }));
    const res = await post(u.token, key);
    expect([res.status, res.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_IN_USE']);
    const other = await post(u.token, key, 'another caption');
    expect([other.status, other.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect(await postsCount(u.id)).toBe(0);
    // The refusals left the other request's marker alone.
    expect(await getItem(keys.idempotency(u.id, key))).toMatchObject({ state: 'pending', lockId: 'another-request' });
  });

  it('an in-flight marker left by a request that died expires, and the key can then be used', async () => {
    const [u] = await users(1);
    const key = `dead-${u.id}`;
    const print = fingerprint('POST', '/posts/create', { image, caption: 'idem' });
    await db.send(new PutCommand({ TableName: TABLE, Item: {
      ...keys.idempotency(u.id, key), state: 'pending', fingerprint: print, lockId: 'dead-lambda',
      expiresAt: Math.floor(Date.now() / 1000) - 1,
    } }));
    const res = await post(u.token, key);
    expect(res.status).toBe(201);
    expect(await postsCount(u.id)).toBe(1);
  });

  it('the in-flight marker expires within IN_FLIGHT_SECONDS, longer than a function may run', async () => {
    expect(IN_FLIGHT_SECONDS).toBeGreaterThan(10); // serverless.yml: timeout 10
    expect(IN_FLIGHT_SECONDS).toBeLessThanOrEqual(60);
  });

  it('a failed first request (4xx) does not hold the key: its marker is gone and the key serves another request', async () => {
    const [u, author] = await users(2);
    const key = `fail-${u.id}`;
    const missing = await comment(u, newId(), 'to nothing', { headers: { 'Idempotency-Key': key } });
    expect(missing.status).toBe(404);
    expect(await getItem(keys.idempotency(u.id, key))).toBeUndefined();

    // A refusal on the same path: once the reason is gone, the same request with the key succeeds.
    const p = await post(author.token, `a-${author.id}`);
    await block(author, u);
    const refused = await comment(u, p.body.post._id, 'hi', { headers: { 'Idempotency-Key': key } });
    expect(refused.status).toBe(404);
    await unblock(author, u);
    const ok = await comment(u, p.body.post._id, 'hi', { headers: { 'Idempotency-Key': key } });
    expect(ok.status).toBe(201);
  });

  it('racing requests under one key with different bodies create exactly one post; the others are 409 or 422', async () => {
    const [u] = await users(1);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => post(u.token, `race-${u.id}`, `caption ${i % 2}`)));
    const created = results.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.post._id)).size).toBe(1);
    const winner = created[0]!.body.post.caption;
    for (const r of results.filter((x) => x.status !== 201)) {
      expect([[409, 'IDEMPOTENCY_KEY_IN_USE'], [422, 'IDEMPOTENCY_KEY_REUSED']]).toContainEqual([r.status, r.body.code]);
    }
    // Every answer under the other body is a refusal, never the winner's post.
    expect(results.filter((r) => r.status === 201).every((r) => r.body.post.caption === winner)).toBe(true);
    expect(await postsCount(u.id)).toBe(1);
  });

  it('a malformed key is 400 VALIDATION_ERROR naming the header', async () => {
    const [u] = await users(1);
    for (const key of ['has space', 'x'.repeat(256), 'tab\there', 'é']) {
      const res = await post(u.token, key);
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([{ path: 'idempotency-key', message: expect.any(String) }]);
    }
    expect(await postsCount(u.id)).toBe(0);
  });
});
