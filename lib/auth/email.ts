// The account's address (contract section 16): verification (POST /auth/verify-email), its
// resend (POST /auth/verify-email/resend) and the e-mail change's confirmation (its request:
// ./email-change.ts, POST /users/me/email). Every
// e-mail goes through the outbox (lib/mail/outbox.ts), in the transaction of the change it
// reports; its token is made when the stream sends it (lib/mail/tokens.ts).
//
// A pending change reserves nothing: it is one item in the account's partition
// (keys.pendingEmail: the address awaiting confirmation), and the address is claimed only when
// its token comes back, in the one transaction that moves the account to it: the new claim put
// (409 EMAIL_TAKEN if taken meanwhile, the token left unspent), the old one deleted, the user
// item's email and emailVerified set, the old address's verification tokens voided, and a
// notice queued to the old address.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import { transact, type TxItem } from '../db/transact';
import * as keys from '../keys';
import { newId } from '../ids';
import { Conflict, InvalidToken, TooManyAttempts } from '../errors';
import { logItem } from '../audit/records';
import type { TraceContext } from '../audit/context';
import type { UserItem } from '../users/model';
import { claimItem, nextTimestamp } from '../users/write';
import { mailPut } from '../mail/outbox';
import { readToken, spendToken, voidTokens } from '../mail/tokens';
import { admitMail, RESEND_RATE } from '../mail/rate';
import type { Caller } from './caller';
import { allSettled } from '../settle';

export const emailTaken = () => new Conflict('EMAIL_TAKEN', 'An account with this e-mail address already exists.');

interface PendingEmail {
  address: string;
  /** The change's confirmation e-mails are good until then (ms): resends go to it until then. */
  validUntil: number;
}

export const readItem = async <T>(key: { PK: string; SK: string }): Promise<T | undefined> =>
  (await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }))).Item as T | undefined;

/** The user item's update of a verification: conditioned on the address the token was sent to. */
function verifiedUpdate(user: UserItem, set: Record<string, unknown>, expectEmail: string): TxItem {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':expect': expectEmail };
  const sets = Object.entries(set).map(([k, v], i) => { names[`#s${i}`] = k; values[`:s${i}`] = v; return `#s${i} = :s${i}`; });
  return {
    op: {
      Update: {
        TableName: TABLE,
        Key: keys.user(user.id),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'email = :expect AND attribute_not_exists(deletedAt)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
    // The account moved to another address since (its verification tokens are void), or is gone.
    onConditionFailed: () => new InvalidToken(),
  };
}

/** POST /auth/verify-email: a verification token verifies the address it was sent to; an e-mail change token moves the account to its address. */
export async function verifyEmail(token: string, trace: TraceContext, payload: Record<string, unknown>): Promise<void> {
  const item = await readToken(token, ['VERIFY', 'EMAIL_CHANGE']);
  const user = await readItem<UserItem>(keys.user(item.userId));
  if (!user || user.deletedAt) throw new InvalidToken();
  const updatedAt = nextTimestamp(user.updatedAt);
  if (item.kind === 'VERIFY') {
    if (user.email !== item.address) throw new InvalidToken();
    await transact([
      ...spendToken(item),
      verifiedUpdate(user, { emailVerified: true, updatedAt }, item.address),
      logItem(trace, {
        type: 'EMAIL_VERIFIED',
        description: `User @${user.username} verified their e-mail address.`,
        actorId: user.id,
        payload,
        diff: { before: { emailVerified: user.emailVerified }, after: { emailVerified: true }, changes: user.emailVerified ? [] : ['emailVerified'] },
      }),
    ]);
    return;
  }
  // An e-mail change: the switch, atomic. The new address is checked again now.
  const old = user.email;
  await transact([
    ...spendToken(item),
    verifiedUpdate(user, { email: item.address, emailVerified: true, updatedAt }, old),
    {
      op: { Put: { TableName: TABLE, Item: claimItem(keys.email(item.address), user.id, user.passwordHash), ConditionExpression: 'attribute_not_exists(PK)' } },
      onConditionFailed: emailTaken,
    },
    {
      op: { Delete: { TableName: TABLE, Key: keys.email(old), ConditionExpression: 'userId = :me', ExpressionAttributeValues: { ':me': user.id } } },
      onConditionFailed: () => new InvalidToken(),
    },
    { op: { Delete: { TableName: TABLE, Key: keys.pendingEmail(user.id) } } },
    voidTokens(user.id, 'VERIFY'),
    mailPut({ userId: user.id, to: old, kind: 'EMAIL_CHANGED', data: { username: user.username } }),
    logItem(trace, {
      type: 'EMAIL_CHANGED',
      description: `User @${user.username} confirmed a new e-mail address.`,
      actorId: user.id,
      payload,
      diff: { before: { email: '[REDACTED]', emailVerified: user.emailVerified }, after: { email: '[REDACTED]', emailVerified: true }, changes: ['email', 'emailVerified'] },
    }),
  ]);
}

/** What `resend` did: sent a new e-mail (202), or found nothing to verify (200). */
export type Resent = 'sent' | 'nothing';

/**
 * POST /auth/verify-email/resend: a new e-mail to the address awaiting verification (the new
 * one of a pending change, else the account's own while unverified), at most RESEND_RATE.
 */
export async function resendVerification(caller: Caller, trace: TraceContext, payload: Record<string, unknown>): Promise<Resent> {
  const [user, pending] = await allSettled([caller.user(), readItem<PendingEmail>(keys.pendingEmail(caller.userId))]);
  const now = Date.now();
  const target = pending && pending.validUntil > now
    ? { to: pending.address, kind: 'EMAIL_CHANGE' as const }
    : !user.emailVerified ? { to: user.email, kind: 'VERIFY_EMAIL' as const } : undefined;
  if (!target) return 'nothing';
  const id = newId();
  const wait = await admitMail(user.id, id, RESEND_RATE, now);
  if (wait > 0) throw new TooManyAttempts(wait, `Too many verification e-mails: at most ${RESEND_RATE.limit} in 24 hours. Try again later.`);
  await transact([
    mailPut({ id, userId: user.id, to: target.to, kind: target.kind, data: { username: user.username } }),
    logItem(trace, { type: 'VERIFICATION_RESENT', description: `User @${user.username} asked for a new verification e-mail.`, actorId: user.id, payload }),
  ]);
  return 'sent';
}

/** Queues the "your password was changed" notice (a password change, a reset). */
export const passwordChangedMail = (user: Pick<UserItem, 'id' | 'email' | 'username'>) => mailPut({ userId: user.id, to: user.email, kind: 'PASSWORD_CHANGED', data: { username: user.username } });
