// POST /auth/login (contract section 3): an identifier and a password in, a session out.
//
// Told apart by nothing: an unknown identifier and a wrong password answer the same status
// and body, under the same lock (an unknown identifier has a guard of its own, keyed by it:
// lib/auth/login-guard.ts), after the same work: one read of the claim, then the scrypt
// computation (with the dummy hash's salt when no account holds the identifier) beside the
// lock's admission, then the failure's bookkeeping; and the read of a user item (an id never
// issued when no account holds the identifier), beside the admission. A known account's
// edge lists, which the answer embeds, are read only once the password is right, beside the
// session's write: read beside the hash, they made a wrong password wait for two more round
// trips whenever the reads were slower than scrypt (29 ms apart on a loaded machine).
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import { transact } from '../db/transact';
import * as keys from '../keys';
import { Forbidden, InvalidCredentials } from '../errors';
import { allSettled } from '../settle';
import { logItem } from '../audit/records';
import { diffState } from '../audit/diff';
import type { TraceContext } from '../audit/context';
import { getUser, EMBED_LIMIT } from '../users/repo';
import { toBaseUser, type BaseUser } from '../users/model';
import { saltClaim } from '../users/write';
import { upgradeHash } from '../users/rehash';
import { ownEdgesSeen } from '../graph/hidden';
import { DUMMY_HASH, deriveKey, keyMatches, saltOf, verifyPassword } from '../users/password';
import { issue, newSession, sessionPut, type Issued } from './sessions';
import { admit, failed, release } from './login-guard';
import { issueChallenge, type Challenged } from './login-challenge';

/** An id no account has (ids are ULIDs of their creation time, never the epoch's). */
const NO_USER = '00000000000000000000000000';

export interface LoginInput {
  /** A username or an e-mail address, lower case. */
  identifier: string;
  password: string;
}

export interface LoginContext {
  /** The connection's address as API Gateway gives it (never a header such as X-Forwarded-For): the lock counts per address. */
  sourceIp: string | undefined;
  userAgent: string;
  trace: TraceContext;
  /** What the login's trace record keeps of the request (the body, its password redacted there). */
  payload: Record<string, unknown>;
}

/** Checks the password under the login lock and starts a session: its tokens and the account's own user object. */
export async function login(input: LoginInput, ctx: LoginContext): Promise<(Issued & { user: BaseUser }) | Challenged> {
  const claim = input.identifier.includes('@') ? keys.email(input.identifier) : keys.username(input.identifier);
  // Strongly consistent: logging in right after registering must find the new claim.
  const res = await db.send(new GetCommand({ TableName: TABLE, Key: claim, ConsistentRead: true }));
  const userId = res.Item?.userId as string | undefined;
  // The claim carries the salt of the account's hash (lib/users/write.ts claimItem), so scrypt
  // starts now, beside the read of the user item, as it does for an unknown account (with the
  // dummy hash's): both paths hash from the same point. A claim without a usable salt is
  // checked after that read, as are the rare ones whose salt the hash no longer has (a
  // password change that could not update them).
  const seenSalt = res.Item?.salt;
  const salt = userId ? saltOf(seenSalt) : saltOf(DUMMY_HASH);
  const early = salt ? deriveKey(input.password, salt).catch(() => undefined) : undefined;
  // Admitted by the login lock beside the reads and the hash, before its verdict is told.
  const [[user, attempt], key] = await allSettled([
    // An identifier no account holds reads the item of an id never issued: both refusals send
    // the same requests, as both hash (DUMMY_HASH).
    allSettled([getUser(userId ?? NO_USER).then((u) => (userId ? u : undefined)), admit(userId ? { userId } : { claim }, ctx.sourceIp)]),
    early,
  ]);
  // Unknown account or wrong password: the same scrypt work, the same answer, the same
  // bookkeeping. The early key serves only a hash of the salt it was derived with.
  const stored = user?.passwordHash ?? DUMMY_HASH;
  const valid = key !== undefined && saltOf(stored) === salt ? keyMatches(key, stored) : await verifyPassword(input.password, stored);
  if (!user || !valid) {
    await failed(attempt);
    throw new InvalidCredentials();
  }
  // An account deleted since its claim was read is no account: as unknown, the mark withdrawn
  // (its partition is being swept; a session written there would be refused anyway).
  if (user.deletedAt) {
    await release(attempt);
    throw new InvalidCredentials();
  }
  // Told only to whoever knows the password (contract section 15: suspended until unsuspended).
  if (user.suspendedAt) {
    await release(attempt);
    throw new Forbidden('This account is suspended.');
  }
  // Two-factor sign-in on (contract section 17): a right password earns a challenge, not a
  // session. Its check leaves the guards, but the failed checks stay until a sign-in completes.
  if (user.twoFactorEnabled) return (await allSettled([issueChallenge(user, ctx), release(attempt)]))[0];
  const session = newSession(user, ctx.userAgent);
  const [edges] = await allSettled([
    ownEdgesSeen(user.id, EMBED_LIMIT.single),
    // A right password is no failure: its check leaves the lock's guards.
    release(attempt),
    // A claim without the hash's salt (written before claims kept it, or left behind by a race)
    // takes it now, unless it changed since it was read, so the next login hashes early.
    saltOf(user.passwordHash) === salt ? undefined : saltClaim(claim, user.id, user.passwordHash, { seen: seenSalt }),
    // A hash of weaker parameters is replaced now that the password is known (contract section 3).
    upgradeHash(user, input.password),
    // The new session and the record of the login, in one transaction.
    transact([
      sessionPut(session.item),
      logItem(ctx.trace, {
        type: 'USER_LOGGED_IN',
        description: `User @${user.username} logged in (session ${session.item.id}).`,
        actorId: user.id,
        payload: ctx.payload,
        // The record a login creates is its session.
        diff: diffState(null, { _id: session.item.id, createdAt: session.item.createdAt, userAgent: session.item.userAgent }),
      }),
    ]),
  ]);
  return { ...(await issue(session.item, session.refreshToken)), user: toBaseUser(user, edges, true) };
}
