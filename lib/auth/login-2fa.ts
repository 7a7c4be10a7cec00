// POST /auth/login/2fa (contract section 17): a login's challenge and a code (TOTP or recovery)
// in, the session of section 3 out.
//
// A challenge that is unknown, spent, expired, or issued under a password since changed is a 401
// INVALID_CREDENTIALS and no check of a code (a challenge is 256 random bits: it cannot be
// guessed, and with none there is no account to count against). With a live challenge, the code
// is a check of its account's login lock, exactly as a password is: admitted before its verdict
// (so a locked account's right code is a 429, and a burst of guesses gets no more checks than
// the lock allows), a wrong code counted as a failure and the challenge left unspent (the owner
// may mistype). A right one completes the sign-in in one transaction: the challenge deleted
// under its condition (one success), the code spent under its own (each code once), the session
// and the record put. Then, and only then, the address's failed checks are forgotten.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import { transact } from '../db/transact';
import * as keys from '../keys';
import { Forbidden, InvalidCredentials } from '../errors';
import { allSettled } from '../settle';
import { logItem } from '../audit/records';
import { diffState } from '../audit/diff';
import { getUser, EMBED_LIMIT } from '../users/repo';
import { toBaseUser, type BaseUser } from '../users/model';
import { ownEdgesSeen } from '../graph/hidden';
import { issue, newSession, sessionPut, type Issued } from './sessions';
import { admit, failed, forgiveAddress, release, type Attempt } from './login-guard';
import { challengeKey, passwordFingerprint, type ChallengeItem } from './login-challenge';
import { readTwoFactor, spendItem, spendOf, SpentCode } from './two-factor';
import type { LoginContext } from './login';

/** The challenge is no longer there (a racing sign-in spent it): a 401 that counts no failure. */
class ChallengeGone extends InvalidCredentials {}

async function endCheck(attempt: Attempt, err: unknown): Promise<never> {
  if (err instanceof SpentCode) await failed(attempt);
  else await release(attempt).catch(() => undefined);
  throw err;
}

export async function loginWithCode(input: { challenge: string; code: string }, ctx: LoginContext, nowMs = Date.now()): Promise<Issued & { user: BaseUser }> {
  const key = challengeKey(input.challenge);
  const res = await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }));
  const challenge = res.Item as ChallengeItem | undefined;
  if (!challenge || challenge.until <= nowMs || keys.user(challenge.userId).PK !== key.PK) throw new InvalidCredentials();
  // Admitted by the lock beside the reads of the account: only the verdict waits for it.
  const admitted = admit({ userId: challenge.userId }, ctx.sourceIp, nowMs);
  const [[user, item], attempt] = await allSettled([
    allSettled([getUser(challenge.userId), readTwoFactor(challenge.userId)]).catch((err) => admitted.then((a) => endCheck(a, err))),
    admitted,
  ]);
  // The account gone, its two-factor sign-in turned off, or its password changed since the
  // challenge: the challenge is void, no code was checked.
  if (!user || user.deletedAt || !item?.secret || challenge.pw !== passwordFingerprint(user.passwordHash)) {
    await release(attempt);
    throw new InvalidCredentials();
  }
  const spend = spendOf(item, input.code, nowMs);
  if (!spend) {
    await failed(attempt);
    throw new InvalidCredentials();
  }
  // Told only to whoever knows both factors (as the password step tells it after a right password).
  if (user.suspendedAt) {
    await release(attempt);
    throw new Forbidden('This account is suspended.');
  }
  const session = newSession(user, ctx.userAgent, nowMs);
  await transact([
    {
      op: { Delete: { TableName: TABLE, Key: key, ConditionExpression: 'attribute_exists(PK) AND #until > :now', ExpressionAttributeNames: { '#until': 'until' }, ExpressionAttributeValues: { ':now': nowMs } } },
      onConditionFailed: () => new ChallengeGone(),
    },
    spendItem(user.id, spend),
    sessionPut(session.item),
    logItem(ctx.trace, {
      type: 'USER_LOGGED_IN',
      description: `User @${user.username} logged in with a ${spend.kind === 'totp' ? 'two-factor' : 'recovery'} code (session ${session.item.id}).`,
      actorId: user.id,
      payload: ctx.payload,
      diff: diffState(null, { _id: session.item.id, createdAt: session.item.createdAt, userAgent: session.item.userAgent }),
    }),
  ]).catch((err) => endCheck(attempt, err));
  const [edges] = await allSettled([
    ownEdgesSeen(user.id, EMBED_LIMIT.single),
    // A completed sign-in: its check and the failed checks of its address leave the guard
    // (its own mark among them: one read and one write, no release before them).
    forgiveAddress(attempt),
  ]);
  return { ...(await issue(session.item, session.refreshToken)), user: toBaseUser(user, edges, true) };
}
