// Idempotency-Key (contract section 8, the IETF draft "The Idempotency-Key HTTP Header
// Field"). A key belongs to its user and is bound to one request: its method, its path and
// a hash of its body (the fingerprint).
//   1. A conditional Put claims the key with an in-flight marker (fingerprint, a lock id,
//      a short expiry). It succeeds when the key is unused or its record has expired.
//   2. Otherwise the record decides: another fingerprint is a 422 IDEMPOTENCY_KEY_REUSED;
//      a stored answer is replayed (status, body); a live marker is a 409
//      IDEMPOTENCY_KEY_IN_USE.
//   3. The creation's own transaction turns the marker into the stored answer (24 h), under
//      the condition that the marker is still ours (idempotencyItem), so nothing is created
//      by a request whose claim lapsed and was taken over.
//   4. A request that fails deletes its marker (a failed first request does not hold the
//      key). A marker left by a Lambda that died expires after IN_FLIGHT_SECONDS: longer
//      than a function may run (10 s, serverless.yml), short enough for a client's retry.
import { createHash, randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { db, TABLE } from '../db/client';
import type { TxItem } from '../db/transact';
import * as keys from '../keys';
import { IDEMPOTENCY_KEY_PATTERN } from '../fields';
import { IdempotencyKeyInUse, IdempotencyKeyReused, ValidationError } from '../errors';
import type { ApiReply, ApiRequest } from './request';

export const ANSWER_SECONDS = 24 * 3600;
export const IN_FLIGHT_SECONDS = 15;
const KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN);

type AnyRequest = ApiRequest<unknown, unknown, unknown>;

interface Claim { key: string; lockId: string; fingerprint: string; answered: boolean }
const claims = new WeakMap<object, Claim>();

function keyOf(req: AnyRequest): string | undefined {
  const key = req.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (!KEY.test(key)) throw ValidationError.field('idempotency-key', 'must be 1-255 visible ASCII characters');
  return key;
}

/** JSON with object keys sorted, so the same body sent with another key order or spacing is the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Method, path and a SHA-256 of the body as sent (parsed, before validation's trimming). */
export function fingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(`${method.toUpperCase()} ${path}\n${canonical(body)}`).digest('base64url');
}

function requestFingerprint(req: AnyRequest, rawBody: unknown): string {
  const { event } = req;
  const method = event.requestContext?.http?.method ?? 'POST';
  const path = event.rawPath ?? event.requestContext?.http?.path ?? '';
  return fingerprint(method, path, rawBody);
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

async function claim(userId: string, key: string, print: string, lockId: string): Promise<boolean> {
  const now = nowSeconds();
  try {
    await db.send(new PutCommand({
      TableName: TABLE,
      Item: { ...keys.idempotency(userId, key), state: 'pending', fingerprint: print, lockId, expiresAt: now + IN_FLIGHT_SECONDS },
      ConditionExpression: 'attribute_not_exists(PK) OR expiresAt < :now',
      ExpressionAttributeValues: { ':now': now },
    }));
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

async function record(userId: string, key: string): Promise<Record<string, unknown> | undefined> {
  const res = await db.send(new GetCommand({ TableName: TABLE, Key: keys.idempotency(userId, key), ConsistentRead: true }));
  const item = res.Item;
  if (!item || Number(item.expiresAt) < nowSeconds()) return undefined;
  return item;
}

/** The condition of a write that ends a claim: it is still pending, under this request's lock. */
const stillPending = (c: Claim) => ({
  ConditionExpression: 'lockId = :lock AND #s = :pending',
  ExpressionAttributeNames: { '#s': 'state' },
  ExpressionAttributeValues: { ':lock': c.lockId, ':pending': 'pending' },
});

async function release(userId: string, c: Claim): Promise<void> {
  try {
    await db.send(new DeleteCommand({
      TableName: TABLE,
      Key: keys.idempotency(userId, c.key),
      ...stillPending(c),
    }));
  } catch (err) {
    // Not ours any more (expired and taken over): nothing to release.
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
  }
}

const answerItem = (userId: string, c: Claim, reply: ApiReply) => ({
  TableName: TABLE,
  Item: {
    ...keys.idempotency(userId, c.key),
    state: 'done',
    fingerprint: c.fingerprint,
    status: reply.status ?? 200,
    body: JSON.stringify(reply.body),
    expiresAt: nowSeconds() + ANSWER_SECONDS,
  },
  ...stillPending(c),
});

/**
 * The guard of a route that honours Idempotency-Key: `http({ ..., idempotent })`.
 * `rawBody`: the body as parsed, before validation (the fingerprint hashes what was sent).
 */
export async function idempotent(req: AnyRequest, rawBody: unknown, run: () => Promise<ApiReply>): Promise<ApiReply> {
  const key = keyOf(req);
  if (key === undefined) return run();
  const userId = req.caller.userId;
  const c: Claim = { key, lockId: randomUUID(), fingerprint: requestFingerprint(req, rawBody), answered: false };
  // Two rounds: a record seen as gone between the failed claim and its read (its request
  // failed and released it, or it expired) is claimed again once.
  for (let round = 0; ; round++) {
    if (await claim(userId, key, c.fingerprint, c.lockId)) break;
    const item = await record(userId, key);
    if (item) {
      if (item.fingerprint !== c.fingerprint) throw new IdempotencyKeyReused();
      if (item.state === 'done') return { status: Number(item.status), body: JSON.parse(String(item.body)) as Record<string, unknown> };
      throw new IdempotencyKeyInUse();
    }
    if (round >= 1) throw new IdempotencyKeyInUse();
  }
  claims.set(req, c);
  let reply: ApiReply;
  try {
    reply = await run();
  } catch (err) {
    await release(userId, c);
    throw err;
  }
  if (!c.answered) {
    // The handler stored no answer in its own transaction: store it now.
    try {
      await db.send(new PutCommand(answerItem(userId, c, reply)));
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) throw new IdempotencyKeyInUse();
      throw err;
    }
  }
  return reply;
}

export type IdempotencyGuard = typeof idempotent;

/**
 * The Put that turns this request's in-flight marker into its stored answer, for the
 * creation's transaction; none when the request carries no Idempotency-Key. When the marker
 * is no longer ours (it expired and another request claimed the key), the transaction
 * fails with 409 and creates nothing.
 */
export function idempotencyItem(req: AnyRequest, reply: ApiReply): TxItem[] {
  const c = claims.get(req);
  if (!c) return [];
  c.answered = true;
  return [{ op: { Put: answerItem(req.caller.userId, c, reply) }, onConditionFailed: () => new IdempotencyKeyInUse() }];
}
