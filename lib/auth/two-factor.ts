// Two-factor sign-in (contract section 17): setup, enable and disable, and the check of a code
// (a TOTP code or a recovery code) that the login's second step (lib/auth/login-2fa.ts) shares.
//
// One item per account (keys.twoFactor, in its partition, so the account's cleanup sweeps it):
// `pendingSecret` from setup until enable; then `secret`, `lastStep` (the step of the last TOTP
// code accepted: the enabling code's first) and `recovery` (a string set of the SHA-256 hashes
// of the unused recovery codes). The user item's `twoFactorEnabled` moves with it in the same
// transaction, so the login's read of the user item, which it makes anyway, tells it whether a
// second step is due.
//
// Each code is accepted once: a TOTP code is spent by a write conditioned on `lastStep < :step`
// (a code of a step at or before the last accepted one is refused, also when the same code is
// sent twice at once: one condition holds, the other fails), a recovery code by removing its
// hash from the set under `contains(recovery, :hash)`. The write is part of the change the code
// allows (the session, the disabling), in one transaction.
//
// Every check of a password or a code here is a check of the login lock (lib/auth/login-guard.ts):
// admitted before its verdict, a wrong one counted as a failure, a right one released.
import { createHash, randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import { transact, type TxItem } from '../db/transact';
import * as keys from '../keys';
import { InvalidCredentials, ValidationError } from '../errors';
import { allSettled } from '../settle';
import { logItem } from '../audit/records';
import type { TraceContext } from '../audit/context';
import type { Caller } from './caller';
import type { UserItem } from '../users/model';
import { admit, confirmPassword, failed, release, withdraw, type Attempt } from './login-guard';
import { matchStep, newSecret, otpauthUrl } from './totp';
import { mailPut } from '../mail/outbox';

export interface TwoFactorItem {
  PK: string;
  SK: string;
  type: 'TWO_FACTOR';
  userId: string;
  /** Set by setup; becomes `secret` at enable. Base32. */
  pendingSecret?: string;
  /** The active TOTP secret (base32): present exactly while two-factor sign-in is on. */
  secret?: string;
  /** The step of the last TOTP code accepted. */
  lastStep?: number;
  /** Hashes of the unused recovery codes (recoveryHash). */
  recovery?: Set<string>;
  enabledAt?: string;
}

export const RECOVERY_CODES = 10;
/** Characters of a recovery code: 20 of base32 (100 random bits), shown in groups of 5. */
const RECOVERY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const RECOVERY_LENGTH = 20;
/** A TOTP code as sent. */
export const TOTP_CODE = /^\d{6}$/;
/** A recovery code as sent: 20 base32 characters, any case, optionally in groups of 5 joined by "-" or " ". */
export const RECOVERY_CODE = /^[A-Za-z2-7]{5}(?:[- ]?[A-Za-z2-7]{5}){3}$/;

/** A code the account no longer accepts (its step already used, a recovery code spent, the secret replaced): a wrong code. */
export class SpentCode extends InvalidCredentials {}

const ALREADY_ON = () => new ValidationError([{ path: 'code', message: 'two-factor sign-in is already on' }], 'Two-factor sign-in is already on.');

/** New recovery codes: 100 random bits each, as 4 groups of 5 base32 characters. */
export function newRecoveryCodes(n = RECOVERY_CODES): string[] {
  return Array.from({ length: n }, () => {
    const bytes = randomBytes(RECOVERY_LENGTH);
    const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b & 31]).join('');
    return chars.match(/.{5}/g)!.join('-');
  });
}

/**
 * What the table keeps of a recovery code: SHA-256 of the account's id and the code as typed
 * without case or separators. A fast hash is enough for 100 random bits (a slow one protects
 * guessable passwords), and lets a code be found by its hash in the set.
 */
export const recoveryHash = (userId: string, code: string): string =>
  createHash('sha256').update(`${userId}:${code.replace(/[- ]/g, '').toLowerCase()}`).digest('base64url');

export async function readTwoFactor(userId: string): Promise<TwoFactorItem | undefined> {
  const res = await db.send(new GetCommand({ TableName: TABLE, Key: keys.twoFactor(userId), ConsistentRead: true }));
  return res.Item as TwoFactorItem | undefined;
}

/** The condition under which a code is spent, and the update that spends it (for an Update; a Delete needs only the condition). */
export interface Spend {
  condition: string;
  update?: string;
  values: Record<string, unknown>;
  /** What the trace record may say of the code. */
  kind: 'totp' | 'recovery';
}

/**
 * The spending of a code of an account whose two-factor sign-in is on: a TOTP code of a step
 * of the window after `lastStep`, or one of its unused recovery codes. undefined: a wrong code.
 * The write carrying it fails (SpentCode) if a racing request spent it first or the secret changed.
 */
export function spendOf(item: TwoFactorItem, code: string, nowMs = Date.now()): Spend | undefined {
  if (!item.secret) return undefined;
  if (TOTP_CODE.test(code)) {
    const step = matchStep(item.secret, code, nowMs, item.lastStep ?? -1);
    if (step === undefined) return undefined;
    return {
      kind: 'totp',
      condition: 'secret = :secret AND (attribute_not_exists(lastStep) OR lastStep < :step)',
      update: 'SET lastStep = :step',
      values: { ':secret': item.secret, ':step': step },
    };
  }
  if (!RECOVERY_CODE.test(code)) return undefined;
  const hash = recoveryHash(item.userId, code);
  if (!item.recovery?.has(hash)) return undefined;
  return {
    kind: 'recovery',
    condition: 'secret = :secret AND contains(recovery, :hash)',
    update: 'DELETE recovery :hashes',
    values: { ':secret': item.secret, ':hash': hash, ':hashes': new Set([hash]) },
  };
}

/** The transaction item that spends a code (an Update of the two-factor item). */
export function spendItem(userId: string, spend: Spend): TxItem {
  return {
    op: { Update: { TableName: TABLE, Key: keys.twoFactor(userId), UpdateExpression: spend.update!, ConditionExpression: spend.condition, ExpressionAttributeValues: spend.values } },
    onConditionFailed: () => new SpentCode(),
  };
}

/** A write whose condition was the check of a code: a SpentCode counts as the failed check it is, anything else withdraws the check. */
async function spending(attempt: Attempt, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (err) {
    if (err instanceof SpentCode) await failed(attempt);
    else await release(attempt).catch(() => undefined);
    throw err;
  }
}

export interface TwoFactorContext {
  /** The connection's address as API Gateway gives it: the login lock counts per address. */
  sourceIp: string | undefined;
  trace: TraceContext;
  /** The request's body for the trace record (its password and codes redacted there). */
  payload: Record<string, unknown>;
}

/** The notice e-mail of an enable or a disable (contract section 17), to the account's address, sent from the stream. */
const notice = (user: UserItem, kind: 'TWO_FACTOR_ENABLED' | 'TWO_FACTOR_DISABLED'): TxItem =>
  mailPut({ userId: user.id, to: user.email, kind, data: { username: user.username } });

/** The user item's flag, in the transaction of an enable or a disable. */
const userFlag = (user: UserItem, on: boolean): TxItem => ({
  op: {
    Update: {
      TableName: TABLE,
      Key: keys.user(user.id),
      UpdateExpression: on ? 'SET twoFactorEnabled = :on' : 'REMOVE twoFactorEnabled',
      ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deletedAt)',
      ...(on ? { ExpressionAttributeValues: { ':on': true } } : {}),
    },
  },
  onConditionFailed: () => new InvalidCredentials(),
});

/**
 * POST /auth/2fa/setup: the password checked, then a new secret pending on the account (a
 * setup again replaces it). Nothing changes for the login until enable.
 */
export async function setupTwoFactor(caller: Caller, password: string, ctx: TwoFactorContext): Promise<{ secret: string; otpauthUrl: string }> {
  const admitted = admit({ userId: caller.userId }, ctx.sourceIp);
  const user = await caller.user().catch((err) => withdraw(admitted, err));
  const attempt = await confirmPassword(user, password, admitted);
  const secret = newSecret();
  await allSettled([release(attempt), transact([
    {
      op: {
        Update: {
          TableName: TABLE,
          Key: keys.twoFactor(user.id),
          UpdateExpression: 'SET #type = :type, userId = :user, pendingSecret = :secret',
          ConditionExpression: 'attribute_not_exists(secret)',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':type': 'TWO_FACTOR', ':user': user.id, ':secret': secret },
        },
      },
      onConditionFailed: ALREADY_ON,
    },
    logItem(ctx.trace, {
      type: 'TWO_FACTOR_SETUP',
      description: `User @${user.username} began setting up two-factor sign-in (a secret is pending).`,
      actorId: user.id,
      payload: ctx.payload,
      diff: { before: {}, after: { pendingSecret: '[REDACTED]' }, changes: ['pendingSecret'] },
    }),
  ])]);
  return { secret, otpauthUrl: otpauthUrl(secret, user.username) };
}

/**
 * POST /auth/2fa/enable: the first code of the pending secret turns two-factor sign-in on
 * (its step is the first accepted) and answers 10 recovery codes, kept only as hashes.
 * The notice e-mail is queued in the same transaction.
 */
export async function enableTwoFactor(caller: Caller, code: string, ctx: TwoFactorContext, nowMs = Date.now()): Promise<string[]> {
  const admitted = admit({ userId: caller.userId }, ctx.sourceIp);
  const [user, item] = await allSettled([caller.user().catch((err) => withdraw(admitted, err)), readTwoFactor(caller.userId).catch((err) => withdraw(admitted, err))]);
  if (item?.secret || user.twoFactorEnabled) await withdraw(admitted, ALREADY_ON());
  const pending = item?.pendingSecret;
  if (!pending) await withdraw(admitted, new ValidationError([{ path: 'code', message: 'no two-factor secret is pending: call POST /auth/2fa/setup first' }], 'No two-factor secret is pending.'));
  const attempt = await admitted;
  const step = TOTP_CODE.test(code) ? matchStep(pending!, code, nowMs) : undefined;
  if (step === undefined) {
    await failed(attempt);
    throw new InvalidCredentials();
  }
  const codes = newRecoveryCodes();
  await spending(attempt, () => transact([
    {
      op: {
        Update: {
          TableName: TABLE,
          Key: keys.twoFactor(user.id),
          UpdateExpression: 'SET secret = :secret, lastStep = :step, recovery = :recovery, enabledAt = :at REMOVE pendingSecret',
          // A racing enable or setup got there first: this code is no longer the pending secret's.
          ConditionExpression: 'pendingSecret = :secret AND attribute_not_exists(secret)',
          ExpressionAttributeValues: { ':secret': pending, ':step': step, ':recovery': new Set(codes.map((c) => recoveryHash(user.id, c))), ':at': new Date(nowMs).toISOString() },
        },
      },
      onConditionFailed: () => new SpentCode(),
    },
    userFlag(user, true),
    logItem(ctx.trace, {
      type: 'TWO_FACTOR_ENABLED',
      description: `User @${user.username} turned two-factor sign-in on.`,
      actorId: user.id,
      payload: ctx.payload,
      diff: { before: { twoFactorEnabled: false }, after: { twoFactorEnabled: true }, changes: ['twoFactorEnabled'] },
    }),
    notice(user, 'TWO_FACTOR_ENABLED'),
  ]));
  await release(attempt);
  return codes;
}

/**
 * POST /auth/2fa/disable: the password and a code (TOTP or recovery) both right turn
 * two-factor sign-in off: the secret and the recovery codes are deleted with the code's
 * spending as the condition. Off already: a no-op once the password is right.
 */
export async function disableTwoFactor(caller: Caller, input: { password: string; code: string }, ctx: TwoFactorContext, nowMs = Date.now()): Promise<boolean> {
  const admitted = admit({ userId: caller.userId }, ctx.sourceIp);
  const [user, item] = await allSettled([caller.user().catch((err) => withdraw(admitted, err)), readTwoFactor(caller.userId).catch((err) => withdraw(admitted, err))]);
  const attempt = await confirmPassword(user, input.password, admitted);
  if (!item?.secret && !user.twoFactorEnabled) {
    await release(attempt);
    return false;
  }
  const spend = item ? spendOf(item, input.code, nowMs) : undefined;
  if (!spend) {
    await failed(attempt);
    throw new InvalidCredentials();
  }
  await spending(attempt, () => transact([
    {
      // The whole item goes, under the condition that spends the code (the update's values aside).
      op: { Delete: { TableName: TABLE, Key: keys.twoFactor(user.id), ConditionExpression: spend.condition, ExpressionAttributeValues: Object.fromEntries(Object.entries(spend.values).filter(([k]) => k !== ':hashes')) } },
      onConditionFailed: () => new SpentCode(),
    },
    userFlag(user, false),
    logItem(ctx.trace, {
      type: 'TWO_FACTOR_DISABLED',
      description: `User @${user.username} turned two-factor sign-in off (with a ${spend.kind === 'totp' ? 'TOTP' : 'recovery'} code).`,
      actorId: user.id,
      payload: ctx.payload,
      diff: { before: { twoFactorEnabled: true }, after: { twoFactorEnabled: false }, changes: ['twoFactorEnabled'] },
    }),
    notice(user, 'TWO_FACTOR_DISABLED'),
  ]));
  await release(attempt);
  return true;
}
