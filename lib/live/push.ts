// Web Push delivery (contract section 20; RFC 8030, payload encrypted per RFC 8291 aes128gcm,
// VAPID per RFC 8292). web-push builds each request (generateRequestDetails: the encryption and
// the VAPID header); it is sent here, over http(s) to the address its host was checked to
// resolve to (lib/live/endpoint.ts), because web-push's own sender speaks https only.
// Outcomes: 2xx delivered; 404, 410 and any other 4xx but 408 and 429 delete the subscription;
// 408, 429, 5xx and network failures are retried by the pushRetry function (an asynchronous
// invocation, functions/live/functions.json), honouring Retry-After (up to PUSH_RETRY_WAIT_MS),
// the first retry within 30 s, PUSH_ATTEMPTS attempts in all, then its on-failure queue.
import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import type webpushType from 'web-push';
import { db, TABLE } from '../db/client';
import { batchWrite } from '../db/batch';
import { SendFailed, signedPost } from '../aws/signed';
import { dynamo } from '../db/client';
import { config } from '../config';
import * as keys from '../keys';
import { logger } from '../log';
import { localLoopback, privateAddress } from './endpoint';
import { vapidKeys } from './vapid';
import type { PushItem } from './connections';

/** How long a push service keeps a message for an offline browser. */
export const PUSH_TTL_SECONDS = 48 * 3600;
/** Attempts in all: the stream's, then the retries. */
export const PUSH_ATTEMPTS = 4;
/** The longest wait before a retry (a longer Retry-After is cut to it): the first retry comes within 30 s. */
export const PUSH_RETRY_WAIT_MS = 30_000;
/** The wait before a retry when the push service named none. */
const DEFAULT_WAIT_MS = [2_000, 10_000, 30_000];

export interface PushPayload {
  type: string;
  notificationId: string;
  actor: { _id: string; username: string };
  post: string | null;
  comment: string | null;
}

export type Outcome = { kind: 'delivered' } | { kind: 'dead'; status: number; reason?: string } | { kind: 'retry'; waitMs: number; reason: string };

/** Retry-After as milliseconds (seconds or an HTTP date), cut to PUSH_RETRY_WAIT_MS. */
export function retryAfterMs(header: string | undefined, attempt: number, nowMs = Date.now()): number {
  const fallback = DEFAULT_WAIT_MS[Math.min(attempt - 1, DEFAULT_WAIT_MS.length - 1)]!;
  if (!header) return fallback;
  const s = Number(header);
  const ms = Number.isFinite(s) ? s * 1000 : Date.parse(header) - nowMs;
  return Number.isNaN(ms) ? fallback : Math.min(Math.max(ms, 0), PUSH_RETRY_WAIT_MS);
}

/** What a push service's status means for the subscription. */
export function outcomeOf(status: number, retryAfter: string | undefined, attempt: number): Outcome {
  if (status >= 200 && status < 300) return { kind: 'delivered' };
  if (status === 408 || status === 429 || status >= 500) return { kind: 'retry', waitMs: retryAfterMs(retryAfter, attempt), reason: `status ${status}` };
  return { kind: 'dead', status };
}

/** Resolves the endpoint's host and refuses a private address (but loopback on the local stage). */
async function checkedAddress(url: URL): Promise<{ address: string; family: number }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const local = config.stage === 'local' && localLoopback(host);
  const all = await lookup(host, { all: true });
  if (!all.length) throw new Error(`${host} resolves to nothing`);
  for (const a of all) if (privateAddress(a.address) && !(local && localLoopback(a.address))) throw new Undeliverable(`${host} resolves to a refused address`);
  return all[0]!;
}

/** A subscription no message can ever reach: its keys cannot encrypt, or its host resolves to a refused address. */
class Undeliverable extends Error {}

/** Sends one encrypted message to one subscription: the push service's status and Retry-After. */
async function sendOnce(sub: PushItem, payload: PushPayload): Promise<{ status: number; retryAfter?: string }> {
  // Loaded at the first push, not at the consumer's cold start (most changes push nothing).
  const [vapid, { default: webpush }] = await Promise.all([vapidKeys(), import('web-push')]);
  let details: ReturnType<typeof webpushType.generateRequestDetails>;
  try {
    details = webpush.generateRequestDetails(
      { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
      JSON.stringify(payload),
      { TTL: PUSH_TTL_SECONDS, contentEncoding: 'aes128gcm', vapidDetails: vapid },
    );
  } catch (err) {
    throw new Undeliverable(`cannot encrypt for it: ${(err as Error).message}`);
  }
  const url = new URL(details.endpoint);
  const { address, family } = await checkedAddress(url);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, {
      method: 'POST',
      headers: details.headers as Record<string, string>,
      timeout: 5_000,
      // The connection goes to the address checked above; TLS still verifies the host name.
      lookup: ((_h: string, o: { all?: boolean }, cb: (e: Error | null, a: unknown, f?: number) => void) =>
        (o?.all ? cb(null, [{ address, family }]) : cb(null, address, family))) as never,
    }, (res: IncomingMessage) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('push service timed out')));
    req.on('error', reject);
    req.end(details.body ?? undefined);
  });
}

/** One attempt: its outcome (a network failure is one to retry). */
export async function attempt(sub: PushItem, payload: PushPayload, n: number): Promise<Outcome> {
  try {
    const { status, retryAfter } = await sendOnce(sub, payload);
    return outcomeOf(status, retryAfter, n);
  } catch (err) {
    if (err instanceof Undeliverable) return { kind: 'dead', status: 0, reason: err.message };
    return { kind: 'retry', waitMs: retryAfterMs(undefined, n), reason: (err as Error).message };
  }
}

export const deleteSubscription = (sub: Pick<PushItem, 'userId' | 'id'>) =>
  db.send(new DeleteCommand({ TableName: TABLE, Key: keys.pushSubscription(sub.userId, sub.id) }));

export async function deletePushSubscriptions(subs: Pick<PushItem, 'PK' | 'SK'>[]): Promise<void> {
  if (subs.length) await batchWrite(subs.map((s) => ({ DeleteRequest: { Key: { PK: s.PK, SK: s.SK } } })));
}

/** A retry the pushRetry function makes. */
export interface PushRetry {
  userId: string;
  subscriptionId: string;
  payload: PushPayload;
  /** The attempt this is (2 = the first retry). */
  attempt: number;
  /** When it may be made, epoch ms. */
  notBefore: number;
}

const retryEndpoint = () => process.env.PUSH_RETRY_INVOKE_ENDPOINT || process.env.CLEANUP_INVOKE_ENDPOINT
  || (config.stage === 'local' ? '' : `https://lambda.${config.region}.amazonaws.com`);
const retryFunction = () => process.env.PUSH_RETRY_FUNCTION_NAME || `aperture-${config.stage}-pushRetry`;

/** Hands a retry to the pushRetry function (InvocationType Event); throws when it is not accepted, so the caller's own retry takes over. */
export async function scheduleRetry(retry: PushRetry): Promise<void> {
  const base = retryEndpoint();
  if (!base) throw new Error('no endpoint to invoke pushRetry (PUSH_RETRY_INVOKE_ENDPOINT)');
  let status: number;
  try {
    ({ status } = await signedPost({
      service: 'lambda', region: config.region, sdk: dynamo.config,
      url: new URL(`/2015-03-31/functions/${encodeURIComponent(retryFunction())}/invocations`, base),
      headers: { 'content-type': 'application/json', 'x-amz-invocation-type': 'Event' },
      body: JSON.stringify(retry), timeoutMs: 3000,
    }));
  } catch (err) {
    if (err instanceof SendFailed) throw new Error(`push retry not scheduled: ${err.message}`);
    throw err;
  }
  if (status !== 202) throw new Error(`push retry not scheduled: Invoke answered ${status}`);
}

/** What one attempt leads to: done, the subscription deleted, or the next retry scheduled (false: attempts spent). */
export async function settle(sub: PushItem, payload: PushPayload, n: number, outcome: Outcome): Promise<boolean> {
  if (outcome.kind === 'delivered') return true;
  if (outcome.kind === 'dead') {
    logger.info('push_subscription_gone', { userId: sub.userId, subscriptionId: sub.id, status: outcome.status, ...(outcome.reason ? { reason: outcome.reason } : {}) });
    await deleteSubscription(sub);
    return true;
  }
  if (n >= PUSH_ATTEMPTS) return false;
  await scheduleRetry({ userId: sub.userId, subscriptionId: sub.id, payload, attempt: n + 1, notBefore: Date.now() + outcome.waitMs });
  return true;
}

/** Pushes a notification to each subscription (the stream's attempt, the first). */
export async function pushNotification(subs: PushItem[], payload: PushPayload): Promise<void> {
  await Promise.all(subs.map(async (sub) => {
    const outcome = await attempt(sub, payload, 1);
    await settle(sub, payload, 1, outcome);
  }));
}

/** The pushRetry function's work: waits until its time, tries again; throws when the last attempt fails (its on-failure queue keeps it). */
export async function retryPush(r: PushRetry, nowMs = Date.now()): Promise<void> {
  const wait = Math.min(Math.max(r.notBefore - nowMs, 0), PUSH_RETRY_WAIT_MS);
  if (wait) await new Promise((res) => setTimeout(res, wait));
  const sub = (await db.send(new GetCommand({ TableName: TABLE, Key: keys.pushSubscription(r.userId, r.subscriptionId), ConsistentRead: true }))).Item as PushItem | undefined;
  if (!sub) return; // deleted meanwhile (its session ended, or the user removed it)
  const outcome = await attempt(sub, r.payload, r.attempt);
  if (!(await settle(sub, r.payload, r.attempt, outcome))) {
    throw new Error(`push to subscription ${r.subscriptionId} failed ${PUSH_ATTEMPTS} times (last: ${outcome.kind === 'retry' ? outcome.reason : outcome.kind})`);
  }
}
