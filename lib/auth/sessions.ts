// Sessions (contract section 13). A login or a registration starts one; its access tokens
// carry its id (`sid`) and the account's session epoch it belongs to (`sep`), and its refresh
// token names it.
//
// A session is live while its item exists, its `expiresAt` (TTL, SESSION_TTL_DAYS after the
// last refresh) is in the future, and its `epoch` equals the user item's `sessionEpoch`: what
// a refresh checks. Ending one session deletes its item and notes its id on the user item
// (`endedSessions`, in the same transaction: endSession); ending all of them moves the epoch
// on the user item in one write (endAllSessions), which ends every session at once, also one a
// login is writing at that moment, and then deletes the dead items (or, for an account's
// deletion, leaves them to the account's cleanup).
//
// An access token is checked on every authenticated request against the user item and its
// session item (sessionUser: two strongly consistent GetItems at once): the session must exist,
// the token's epoch must be the account's (or that of the session a password change kept), and
// its session must not be among those ended one by one. An ended session's id stays noted until every access
// token it had has expired (ENDED_KEEP_MS), so the note is short-lived and small.
//
// Refresh tokens: `<userId>.<sessionId>.<256 random bits>`, stored only as a SHA-256 hash (a
// slow hash buys nothing for 256 random bits). Each is good for one refresh (rotation). A token
// of the session that is not its current one ends the session (it was copied), except the one
// just rotated out within REFRESH_GRACE_MS, while its successor is unused: two refreshes racing
// with one token (a phone resuming twice) both get the same new refresh token. That token is
// kept for the window sealed (AES-256-GCM) under a key derived from the token it replaced, so
// only a holder of that token can open it; it is never stored readable.
import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import { batchWrite } from '../db/batch';
import { ConditionFailed, transact, type TxItem } from '../db/transact';
import * as keys from '../keys';
import { SESSION_PREFIX } from '../keys';
import { newSecretId } from '../ids';
import { config } from '../config';
import { Unauthorized, type ApiError } from '../errors';
import { logItem, writeLog, type LogEntry } from '../audit/records';
import { diffState, noChange } from '../audit/diff';
import type { TraceContext } from '../audit/context';
import type { UserItem } from '../users/model';
import { logger } from '../log';
import { signToken, type TokenClaims } from './tokens';

/** How long the refresh token just rotated out may still be presented by a racing refresh. */
export const REFRESH_GRACE_MS = 5_000;
/** The newest live sessions GET /auth/sessions lists. */
export const SESSION_LIST_LIMIT = 100;
const USER_AGENT_MAX = 256;

export interface SessionItem {
  PK: string;
  SK: string;
  type: 'SESSION';
  id: string;
  userId: string;
  /** The user's sessionEpoch the session belongs to. */
  epoch: number;
  /** Hash of the current refresh token. */
  tokenHash: string;
  /** Hash of the refresh token rotated out last, its time (epoch ms) and its successor sealed under it. */
  previousHash?: string;
  rotatedAt?: number;
  sealedNext?: string;
  createdAt: string;
  lastUsedAt: string;
  userAgent: string;
  /** TTL, epoch seconds. */
  expiresAt: number;
}

export interface Issued {
  token: string;
  refreshToken: string;
  /** Lifetime of `token`, seconds. */
  expiresIn: number;
}

export interface SessionView {
  _id: string;
  createdAt: string;
  lastUsedAt: string;
  userAgent: string;
  current: boolean;
}

type EpochHolder = Pick<UserItem, 'id' | 'sessionEpoch' | 'keptSession'>;
const epochOf = (user: Pick<UserItem, 'sessionEpoch'>) => user.sessionEpoch ?? 0;

/**
 * How long a session ended one by one stays noted on the user item: until every access token
 * it had has expired (TOKEN_TTL_SECONDS after the last was signed, the end at the latest), with
 * at least an hour, so a lifetime lowered between two deployments cannot outrun the note.
 */
export const endedKeepMs = () => (Math.max(config.tokenTtlSeconds, 3_600) + 300) * 1000;
/** More notes than this at once (sessions ended one by one within ENDED_KEEP_MS) end every session of the account instead. */
export const ENDED_MAX = 50;
/** Attempts of one end against others racing it on the same account (each lost attempt is another end done). */
const END_ATTEMPTS = 20;
const expiry = (nowMs: number) => Math.floor(nowMs / 1000) + Math.round(config.sessionTtlDays * 86_400);

export function sessionLive(session: SessionItem | undefined, user: Pick<UserItem, 'sessionEpoch'> | undefined, nowMs = Date.now()): session is SessionItem {
  return !!session && !!user && session.epoch === epochOf(user) && session.expiresAt * 1000 > nowMs;
}

/**
 * Whether an access token's session is live, from the user item alone: the token's epoch is the
 * account's, or one the session kept by the last move of the epoch had (`keptSession`); the
 * session was not ended one by one; and it cannot have expired since the token was signed (a
 * token outlives its session only if TOKEN_TTL_SECONDS exceeds SESSION_TTL_DAYS).
 */
export function tokenLive(user: Pick<UserItem, 'sessionEpoch' | 'keptSession' | 'endedSessions'>, token: Pick<TokenClaims, 'sessionId' | 'epoch' | 'issuedAt'>, nowMs = Date.now()): boolean {
  const epoch = epochOf(user);
  const kept = user.keptSession;
  const inEpoch = token.epoch === epoch || (kept?.id === token.sessionId && token.epoch >= kept.from && token.epoch < epoch);
  return inEpoch && user.endedSessions?.[token.sessionId] === undefined && nowMs < (token.issuedAt + config.sessionTtlDays * 86_400) * 1000;
}

// Refresh tokens.
const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');
const sameHash = (a: string, b: string | undefined) => !!b && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
const newRefreshToken = (userId: string, sessionId: string) => `${userId}.${sessionId}.${randomBytes(32).toString('base64url')}`;
const REFRESH_TOKEN = /^([0-9A-HJKMNP-TV-Z]{26})\.([0-9A-HJKMNP-TV-Z]{26})\.[A-Za-z0-9_-]{43}$/;

export function parseRefreshToken(token: string): { userId: string; sessionId: string } | undefined {
  const m = REFRESH_TOKEN.exec(token);
  return m ? { userId: m[1]!, sessionId: m[2]! } : undefined;
}

const sealKey = (previous: string) => createHash('sha256').update('aperture refresh seal\u0000').update(previous).digest();

function seal(next: string, previous: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(previous), iv);
  const body = Buffer.concat([cipher.update(next, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

function unseal(sealed: string, previous: string): string | undefined {
  try {
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', sealKey(previous), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/** A User-Agent header as a session shows it: trimmed, at most 256 characters. */
export const userAgentOf = (header: string | undefined) => [...(header ?? '').trim()].slice(0, USER_AGENT_MAX).join('');

/** A new session of `user` (its item, to be put, and its first refresh token). */
export function newSession(user: EpochHolder, userAgent: string, nowMs = Date.now()): { item: SessionItem; refreshToken: string } {
  // Not newId(): a session id made in the same millisecond as the user's would be that public
  // id plus one, and a refresh token naming a live session with a made-up secret ends it (below).
  const id = newSecretId();
  const refreshToken = newRefreshToken(user.id, id);
  const now = new Date(nowMs).toISOString();
  return {
    refreshToken,
    item: {
      ...keys.session(user.id, id),
      type: 'SESSION',
      id,
      userId: user.id,
      epoch: epochOf(user),
      tokenHash: hashOf(refreshToken),
      createdAt: now,
      lastUsedAt: now,
      userAgent,
      expiresAt: expiry(nowMs),
    },
  };
}

export const sessionPut = (item: SessionItem): TxItem => ({
  op: { Put: { TableName: TABLE, Item: item, ConditionExpression: 'attribute_not_exists(PK)' } },
});

/** The answer of a login, registration or refresh: a new access token of the session and its refresh token. */
export async function issue(session: Pick<SessionItem, 'userId' | 'id' | 'epoch'>, refreshToken: string): Promise<Issued> {
  return { token: await signToken({ userId: session.userId, sessionId: session.id, epoch: session.epoch }), refreshToken, expiresIn: config.tokenTtlSeconds };
}

/**
 * The user item and the session item, read together (a refresh, every authenticated request): two GetItems sent at once
 * (one round trip). Strongly consistent: a refresh right after its login, or right after its
 * session ended. Not one BatchGetItem: on DynamoDB Local (npm start, the tests) a BatchGetItem
 * waits behind the transactions in flight (docs/ARCHITECTURE.md, "Sessions").
 */
async function readPair(userId: string, sessionId: string): Promise<{ user?: UserItem; session?: SessionItem }> {
  const [user, session] = await Promise.all([keys.user(userId), keys.session(userId, sessionId)].map((Key) =>
    db.send(new GetCommand({ TableName: TABLE, Key, ConsistentRead: true })).then((res) => res.Item)));
  return { user: user as UserItem | undefined, session: session as SessionItem | undefined };
}

const readUser = async (userId: string) =>
  (await db.send(new GetCommand({ TableName: TABLE, Key: keys.user(userId), ConsistentRead: true }))).Item as UserItem | undefined;

/**
 * The user of an access token whose session is live, else a 401: the user item and the session
 * item, two strongly consistent GetItems at once (one round trip; readPair). The session must
 * exist (a `sid` made up by a holder of the signing key names none), and the token must be
 * live by the user item (tokenLive: its epoch, the sessions ended one by one). Every
 * authenticated request calls it (lib/http/auth.ts).
 */
export async function sessionUser(token: Pick<TokenClaims, 'userId' | 'sessionId' | 'epoch' | 'issuedAt'>): Promise<UserItem> {
  // The ids are as the service writes them (lib/auth/tokens.ts verifyToken).
  const { user, session } = await readPair(token.userId, token.sessionId);
  // A suspension ends every session at once (its epoch moves); a session begun since by other
  // means than a login (which a suspended account cannot: 403) is refused all the same.
  if (!user || user.deletedAt || user.suspendedAt) throw new Unauthorized('This account no longer exists or is suspended.');
  if (!session || !tokenLive(user, token)) throw new Unauthorized('The session of this token has ended. Log in again.');
  return user;
}

const refused = () => new Unauthorized('The refresh token is invalid or its session has ended. Log in again.');

/**
 * POST /auth/refresh: a new pair for a current refresh token (rotation); the same new
 * refresh token to a refresh racing it within the grace window; and for any other token of
 * a live session, the end of that session (a used token coming back means it was copied).
 */
export async function refreshSession(refreshToken: string, trace: TraceContext, payload: Record<string, unknown>): Promise<Issued> {
  const ids = parseRefreshToken(refreshToken);
  if (!ids) throw refused();
  const presented = hashOf(refreshToken);
  // A second pass only after losing a race to a refresh with the same token, which is then
  // seen as the rotation it made.
  for (let pass = 0; pass < 2; pass++) {
    const { user, session } = await readPair(ids.userId, ids.sessionId);
    const nowMs = Date.now();
    if (!user || user.deletedAt || user.suspendedAt || !sessionLive(session, user, nowMs)) throw refused();
    const entry = (description: string): LogEntry => ({ type: 'SESSION_REFRESHED', description, actorId: user.id, payload, diff: noChange() });

    if (sameHash(presented, session.tokenHash)) {
      const next = newRefreshToken(session.userId, session.id);
      const lastUsedAt = new Date(nowMs).toISOString();
      try {
        await transact([
          {
            op: {
              Update: {
                TableName: TABLE,
                Key: keys.session(session.userId, session.id),
                UpdateExpression: 'SET tokenHash = :next, previousHash = :used, sealedNext = :sealed, rotatedAt = :now, lastUsedAt = :at, expiresAt = :exp',
                ConditionExpression: 'tokenHash = :used AND epoch = :epoch',
                ExpressionAttributeValues: {
                  ':next': hashOf(next), ':used': presented, ':sealed': seal(next, refreshToken), ':now': nowMs,
                  ':at': lastUsedAt, ':exp': expiry(nowMs), ':epoch': session.epoch,
                },
              },
            },
          },
          logItem(trace, {
            ...entry(`User ${user.id} refreshed session ${session.id}.`),
            diff: diffState({ _id: session.id, lastUsedAt: session.lastUsedAt }, { _id: session.id, lastUsedAt }),
          }),
        ]);
      } catch (err) {
        if (err instanceof ConditionFailed && pass === 0) continue;
        if (err instanceof ConditionFailed) throw refused();
        throw err;
      }
      return issue(session, next);
    }

    // The token just rotated out, within the window, while its successor is unused (using it
    // rotates again, so this token stops being `previousHash`): the successor again.
    const racing = sameHash(presented, session.previousHash) && nowMs - (session.rotatedAt ?? 0) <= REFRESH_GRACE_MS;
    const next = racing && session.sealedNext ? unseal(session.sealedNext, refreshToken) : undefined;
    if (next && sameHash(hashOf(next), session.tokenHash)) {
      await writeLog(trace, entry(`User ${user.id} refreshed session ${session.id} again within ${REFRESH_GRACE_MS / 1000} s of its rotation (a racing refresh): answered the same new refresh token.`));
      return issue(session, next);
    }

    // A used (or made-up) token of a live session: the session ends, whoever holds it.
    await endSession(user, session.id, trace, {
      type: 'REFRESH_TOKEN_REUSED',
      level: 'WARN',
      description: `A refresh token of session ${session.id} was presented again after it had been used: the session was ended.`,
      actorId: session.userId,
      payload,
    });
    throw refused();
  }
  throw refused();
}

/**
 * Ends one session of a user: deletes its item and notes its id on the user item, with its
 * trace record (`entry`, whose diff is the session's end), in one transaction. False when there
 * was no such live session (nothing is written then). `user`: the user item as the request read
 * it; the note is written under its `endedV` and read again when another end got there first.
 * Notes older than ENDED_KEEP_MS go in the same write; past ENDED_MAX notes at once (sessions
 * ended one after the other by the dozen within the hour) every session of the account ends.
 */
export async function endSession(user: Pick<UserItem, 'id' | 'endedSessions' | 'endedV' | 'sessionEpoch'>, sessionId: string, trace: TraceContext, entry: Omit<LogEntry, 'diff'>): Promise<boolean> {
  let current: typeof user | undefined = user;
  for (let attempt = 1; ; attempt++) {
    if (!current) return false;
    const nowMs = Date.now();
    const notes = Object.fromEntries(Object.entries(current.endedSessions ?? {}).filter(([, at]) => nowMs - at < endedKeepMs()));
    notes[sessionId] = nowMs;
    const v = current.endedV ?? 0;
    const overflow = Object.keys(notes).length > ENDED_MAX;
    try {
      await transact([
        {
          op: {
            Delete: {
              TableName: TABLE,
              Key: keys.session(current.id, sessionId),
              // Only a live session (sessionLive): an item of an older epoch, left to its TTL by
              // a move of the epoch, is ended already and answers 404. The epoch cannot move
              // meanwhile unnoticed: a move adds to endedV, which the next item's condition holds.
              ConditionExpression: 'attribute_exists(PK) AND expiresAt > :now AND epoch = :epoch',
              ExpressionAttributeValues: { ':now': Math.floor(nowMs / 1000), ':epoch': epochOf(current) },
            },
          },
        },
        {
          op: {
            Update: {
              TableName: TABLE,
              Key: keys.user(current.id),
              UpdateExpression: overflow
                ? 'SET endedV = :next, sessionEpoch = :epoch REMOVE endedSessions, keptSession'
                : 'SET endedSessions = :notes, endedV = :next',
              ConditionExpression: `attribute_exists(PK) AND ${v === 0 ? '(attribute_not_exists(endedV) OR endedV = :v)' : 'endedV = :v'}`,
              ExpressionAttributeValues: {
                ':v': v, ':next': v + 1, ...(overflow ? { ':epoch': epochOf(current) + 1 } : { ':notes': notes }),
              },
            },
          },
        },
        logItem(trace, { ...entry, diff: diffState({ _id: sessionId }, null) }),
      ]);
      return true;
    } catch (err) {
      if (err instanceof ConditionFailed && err.index === 0) return false;
      // Another session's end (or the end of all of them) moved the notes since `current` was
      // read: each lost race is another end that succeeded, so this converges; the pause spreads
      // racers apart.
      if (err instanceof ConditionFailed && err.index === 1 && attempt < END_ATTEMPTS) {
        await new Promise((r) => setTimeout(r, Math.random() * 20 * Math.min(attempt, 5)));
        current = await readUser(current.id);
        continue;
      }
      throw err;
    }
  }
}

export interface EndAll {
  /** The session that stays (a password change keeps the caller's own). */
  except?: string;
  /** More attributes to set on the user item in the same write (a new password hash). */
  set?: Record<string, unknown>;
  /** Attribute values the user item must still hold (the old password hash). */
  expect?: Record<string, unknown>;
  /** The error when the user item is gone or no longer holds `expect` or its epoch. */
  onConflict?: () => ApiError;
  /** More items of the same transaction (the deletion of an account, a suspension). */
  extra?: TxItem[];
  /**
   * What becomes of the ended sessions' items. By default they are read after the change and
   * deleted. `'swept'`: left to a cleanup that removes the user's whole partition (an account's
   * deletion, lib/account/cleanup.ts). Or the user's sessions as `sessionKeys` read them beside
   * the request's first reads (a password change): those are deleted after the change, which
   * then waits for no read. A session a login wrote between that read and the change holds
   * the old epoch, so it is refused like the others, and its item is left to the TTL.
   */
  purge?: 'swept' | SessionKey[];
  /** More work once the change is made, beside the purge, and like it never an error of the request (a password change's claims taking the new salt). */
  afterCommit?: () => Promise<unknown>;
}

/** A session item's keys and epoch: what deleting the ended ones needs. */
export type SessionKey = Pick<SessionItem, 'PK' | 'SK' | 'id' | 'epoch'>;

/** Every session of a user (keys, id and epoch), every page, strongly consistent. */
export async function sessionKeys(userId: string): Promise<SessionKey[]> {
  const all: SessionKey[] = [];
  for await (const page of sessionsOf(userId, 'PK, SK, id, epoch')) all.push(...page);
  return all;
}

/**
 * Ends every session of `user` but `opts.except`, at once: one transaction moves the user's
 * `sessionEpoch` (with `opts.set`), moves the kept session along, and writes the trace record
 * (`entry`). The dead session items are deleted afterwards (they are refused from the moment
 * the transaction commits; a failure of that cleanup leaves items the TTL removes), as
 * `opts.purge` says.
 * Used by password change; suspension and account deletion reuse it.
 */
export async function endAllSessions(user: EpochHolder, trace: TraceContext, entry: LogEntry, opts: EndAll = {}): Promise<void> {
  const epoch = epochOf(user);
  const next = epoch + 1;
  const names: Record<string, string> = { '#epoch': 'sessionEpoch' };
  const values: Record<string, unknown> = { ':next': next, ':epoch': epoch, ':one': 1 };
  const sets = ['#epoch = :next'];
  // The notes of sessions ended one by one are moot once the epoch moves (every other session's
  // tokens are of an older epoch); the kept session's tokens of this epoch and of the epochs it
  // kept before stay good (tokenLive).
  const removes = ['endedSessions'];
  if (opts.except) {
    sets.push('keptSession = :kept');
    values[':kept'] = { id: opts.except, from: user.keptSession?.id === opts.except ? user.keptSession.from : epoch };
  } else {
    removes.push('keptSession');
  }
  const conditions = ['attribute_exists(PK)', '(attribute_not_exists(#epoch) OR #epoch = :epoch)'];
  Object.entries(opts.set ?? {}).forEach(([k, v], i) => { names[`#s${i}`] = k; values[`:s${i}`] = v; sets.push(`#s${i} = :s${i}`); });
  Object.entries(opts.expect ?? {}).forEach(([k, v], i) => { names[`#x${i}`] = k; values[`:x${i}`] = v; conditions.push(`#x${i} = :x${i}`); });
  const items: TxItem[] = [{
    op: {
      Update: {
        TableName: TABLE,
        Key: keys.user(user.id),
        UpdateExpression: `SET ${sets.join(', ')} REMOVE ${removes.join(', ')} ADD endedV :one`,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
    onConditionFailed: opts.onConflict,
  }];
  if (opts.except) {
    items.push({
      op: {
        Update: {
          TableName: TABLE,
          Key: keys.session(user.id, opts.except),
          UpdateExpression: 'SET epoch = :next',
          ConditionExpression: 'attribute_exists(PK) AND epoch = :epoch',
          ExpressionAttributeValues: { ':next': next, ':epoch': epoch },
        },
      },
      onConditionFailed: () => new Unauthorized('The session of this token has ended. Log in again.'),
    });
  }
  await transact([...items, ...(opts.extra ?? []), logItem(trace, entry)]);
  // The change is made: the items are refused from now on, and a failure to delete them must
  // not turn it into an error (the TTL removes what is left).
  let purge: Promise<void> | undefined;
  if (opts.purge === undefined) purge = purgeEnded(user.id, next);
  else if (opts.purge !== 'swept') purge = deleteSessions(opts.purge.filter((s) => s.id !== opts.except && s.epoch < next));
  await Promise.all([
    purge?.catch((err: Error) => logger.error('session_cleanup_failed', { userId: user.id, message: err.message })),
    opts.afterCommit?.().catch((err: Error) => logger.error('after_sessions_ended_failed', { userId: user.id, message: err.message })),
  ]);
}

async function deleteSessions(dead: Pick<SessionItem, 'PK' | 'SK'>[]): Promise<void> {
  if (dead.length) await batchWrite(dead.map((s) => ({ DeleteRequest: { Key: { PK: s.PK, SK: s.SK } } })));
}

/** Every session item of a user, newest first, page by page. */
async function* sessionsOf(userId: string, projection?: string): AsyncGenerator<SessionItem[]> {
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db.send(new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.user(userId).PK, ':prefix': SESSION_PREFIX },
      ...(projection ? { ProjectionExpression: projection } : {}),
      ScanIndexForward: false,
      ConsistentRead: true,
      ExclusiveStartKey: start,
    }));
    yield (res.Items ?? []) as SessionItem[];
    start = res.LastEvaluatedKey;
  } while (start);
}

/** Deletes the items of a user's sessions from before `epoch` (ended by endAllSessions). */
async function purgeEnded(userId: string, epoch: number): Promise<void> {
  for await (const page of sessionsOf(userId, 'PK, SK, epoch')) {
    await deleteSessions(page.filter((s) => s.epoch < epoch));
  }
}

/**
 * The user's live sessions, newest first (at most SESSION_LIST_LIMIT), `current` marking
 * `currentId`. The first page is read beside `owner` (the caller's own read, which holds the
 * epoch that tells live sessions from ended ones), not after it.
 */
export async function listSessions(userId: string, currentId: string, owner: Promise<Pick<UserItem, 'sessionEpoch'>>): Promise<SessionView[]> {
  const out: SessionView[] = [];
  const nowMs = Date.now();
  const pages = sessionsOf(userId, 'id, createdAt, lastUsedAt, userAgent, epoch, expiresAt');
  const first = pages.next();
  first.catch(() => undefined);
  const user = await owner;
  const firstPage = await first;
  const rest = async function* () { if (!firstPage.done) yield firstPage.value; yield* pages; };
  for await (const page of rest()) {
    for (const s of page) {
      if (!sessionLive(s, user, nowMs)) continue;
      out.push({ _id: s.id, createdAt: s.createdAt, lastUsedAt: s.lastUsedAt, userAgent: s.userAgent, current: s.id === currentId });
      if (out.length >= SESSION_LIST_LIMIT) return out;
    }
  }
  return out;
}
