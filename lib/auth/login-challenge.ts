// The first step of a two-factor login (contract section 17): a right password of an account
// with two-factor sign-in on answers a challenge instead of tokens. The challenge is
// `<userId>.<256 random bits>` (as a refresh token names its account), kept only as its hash
// (keys.loginChallenge) in the account's partition, so the account's deletion sweeps it, with
// the time it ends (5 minutes) and a fingerprint of the password hash it was issued under (a
// password changed or reset since voids it); DynamoDB's TTL removes it later. It is spent by the one transaction
// that completes the sign-in (lib/auth/login-2fa.ts). Kept apart from lib/auth/two-factor.ts so
// that the login's function does not bundle the TOTP code.
import { createHash, randomBytes } from 'node:crypto';
import { TABLE } from '../db/client';
import { transact } from '../db/transact';
import * as keys from '../keys';
import { logItem } from '../audit/records';
import type { TraceContext } from '../audit/context';
import type { UserItem } from '../users/model';

export const CHALLENGE_MS = 5 * 60_000;

export interface ChallengeItem {
  PK: string;
  SK: string;
  type: 'LOGIN_CHALLENGE';
  userId: string;
  /** Epoch ms after which it is refused (the TTL's removal comes later). */
  until: number;
  /** passwordFingerprint of the hash the password was checked against. */
  pw: string;
  expiresAt: number;
}

export interface Challenged {
  twoFactorRequired: true;
  challenge: string;
}

export const challengeHash = (challenge: string) => createHash('sha256').update(challenge).digest('base64url');
/** The key of a challenge as sent: its account is the part before the dot. */
export const challengeKey = (challenge: string) => keys.loginChallenge(challenge.slice(0, challenge.indexOf('.')).toUpperCase(), challengeHash(challenge));
export const passwordFingerprint = (passwordHash: string) => createHash('sha256').update(passwordHash).digest('base64url').slice(0, 22);

/** Writes a new challenge for the account and the login's trace record, in one transaction. */
export async function issueChallenge(user: UserItem, ctx: { trace: TraceContext; payload: Record<string, unknown> }, nowMs = Date.now()): Promise<Challenged> {
  const challenge = `${user.id}.${randomBytes(32).toString('base64url')}`;
  const until = nowMs + CHALLENGE_MS;
  const item: ChallengeItem = {
    ...challengeKey(challenge),
    type: 'LOGIN_CHALLENGE',
    userId: user.id,
    until,
    pw: passwordFingerprint(user.passwordHash),
    expiresAt: Math.floor(until / 1000) + 60,
  };
  await transact([
    { op: { Put: { TableName: TABLE, Item: item, ConditionExpression: 'attribute_not_exists(PK)' } } },
    logItem(ctx.trace, {
      type: 'USER_LOGIN_CHALLENGED',
      description: `User @${user.username} gave a right password; a two-factor code is asked for.`,
      actorId: user.id,
      payload: ctx.payload,
      diff: { before: {}, after: { until: new Date(until).toISOString() }, changes: ['until'] },
    }),
  ]);
  return { twoFactorRequired: true, challenge };
}
