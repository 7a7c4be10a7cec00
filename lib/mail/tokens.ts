// The tokens of e-mails (contract section 16): verification, e-mail change and password reset.
// A token is its account's id and 256 random bits (`<userId>.<base64url>`), made when its e-mail
// is sent (lib/mail/reactions.ts) and stored only as its SHA-256: the token item is keyed by the
// account and the hash (in the account's partition, which its deletion sweeps), so presenting one is a
// GetItem, and spending it a conditional Delete in the transaction of what it does (of two
// presentations at once exactly one deletes it). The account's current token of a kind
// (`currentMailToken`) names the newest one's hash, and a token is good only while it does: a
// newer token voids the older ones. Expiry is the token's `validUntil` (ms), checked when it
// is presented; DynamoDB's TTL (`expiresAt`) only removes it later.
import { createHash, randomBytes } from 'node:crypto';
import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import { ConditionFailed, transact, type TxItem } from '../db/transact';
import * as keys from '../keys';
import { InvalidToken } from '../errors';
import type { MailKind } from './templates';

export type TokenKind = 'VERIFY' | 'EMAIL_CHANGE' | 'RESET';

const HOUR_MS = 3_600_000;
/** How long a token of a kind is good for. */
export const TOKEN_LIFETIME_MS: Record<TokenKind, number> = { VERIFY: 24 * HOUR_MS, EMAIL_CHANGE: 24 * HOUR_MS, RESET: HOUR_MS };
/** The token kind of each e-mail kind that carries one. */
export const TOKEN_OF: Partial<Record<MailKind, TokenKind>> = { VERIFY_EMAIL: 'VERIFY', EMAIL_CHANGE: 'EMAIL_CHANGE', PASSWORD_RESET: 'RESET' };

export interface TokenItem {
  PK: string;
  SK: string;
  type: 'MAIL_TOKEN';
  kind: TokenKind;
  userId: string;
  /** The address the token was sent to (the one it verifies, for VERIFY and EMAIL_CHANGE). */
  address: string;
  hash: string;
  /** The e-mail that carried it. */
  mailId: string;
  validUntil: number;
  expiresAt: number;
}

/** The stored form of a token: its SHA-256, base64url. */
export const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('base64url');

/** A fresh token of an account: its id, then 256 bits from the system's CSPRNG. */
export const newToken = (userId: string) => `${userId}.${randomBytes(32).toString('base64url')}`;

/** A token's form; anything else is refused without a read. */
export const TOKEN_PATTERN = /^([0-9A-HJKMNP-TV-Z]{26})\.[A-Za-z0-9_-]{43}$/;

/**
 * Makes the token of the e-mail `mailId` and makes it the account's current one of its kind,
 * voiding the older ones; undefined when a newer e-mail of the kind already made the current
 * one (this e-mail is superseded and is not sent). The same e-mail may make its token again
 * (a send that failed is retried): the newer token voids the one never delivered.
 */
export async function issueToken(t: { kind: TokenKind; userId: string; address: string; mailId: string }, now = Date.now()): Promise<string | undefined> {
  const token = newToken(t.userId);
  const hash = hashToken(token);
  const validUntil = now + TOKEN_LIFETIME_MS[t.kind];
  const expiresAt = Math.floor(validUntil / 1000) + 86_400;
  const item: TokenItem = { ...keys.mailToken(t.userId, hash), type: 'MAIL_TOKEN', kind: t.kind, userId: t.userId, address: t.address, hash, mailId: t.mailId, validUntil, expiresAt };
  try {
    await transact([
      { op: { Put: { TableName: TABLE, Item: item, ConditionExpression: 'attribute_not_exists(PK)' } } },
      {
        op: {
          Put: {
            TableName: TABLE,
            Item: { ...keys.currentMailToken(t.userId, t.kind), type: 'MAIL_TOKEN_CURRENT', hash, mailId: t.mailId, address: t.address, expiresAt },
            ConditionExpression: 'attribute_not_exists(mailId) OR mailId <= :mine',
            ExpressionAttributeValues: { ':mine': t.mailId },
          },
        },
      },
    ]);
  } catch (err) {
    if (err instanceof ConditionFailed && err.index === 1) return undefined;
    throw err;
  }
  return token;
}

/**
 * The token item of `token` if it is good for one of `kinds` now (exists, of such a kind, not
 * expired); else 400 INVALID_TOKEN. Whether it is still the current one, and unspent, is
 * decided by the transaction that spends it (`spendToken`).
 */
export async function readToken(token: string, kinds: readonly TokenKind[], now = Date.now()): Promise<TokenItem> {
  const userId = TOKEN_PATTERN.exec(token)?.[1];
  if (!userId) throw new InvalidToken();
  const res = await db.send(new GetCommand({ TableName: TABLE, Key: keys.mailToken(userId, hashToken(token)), ConsistentRead: true }));
  const item = res.Item as TokenItem | undefined;
  if (!item || item.userId !== userId || !kinds.includes(item.kind) || !(item.validUntil > now)) throw new InvalidToken();
  return item;
}

/**
 * The items that spend a token in the transaction of what it does: its item deleted (it must
 * still be there: of two presentations one deletes it) and the account's current token of its
 * kind deleted while it still names this one (a newer token voids it). Each failure is 400 INVALID_TOKEN.
 */
export function spendToken(item: Pick<TokenItem, 'hash' | 'userId' | 'kind'>): TxItem[] {
  return [
    {
      op: { Delete: { TableName: TABLE, Key: keys.mailToken(item.userId, item.hash), ConditionExpression: 'attribute_exists(PK)' } },
      onConditionFailed: () => new InvalidToken(),
    },
    {
      op: {
        Delete: {
          TableName: TABLE,
          Key: keys.currentMailToken(item.userId, item.kind),
          ConditionExpression: '#hash = :hash',
          ExpressionAttributeNames: { '#hash': 'hash' },
          ExpressionAttributeValues: { ':hash': item.hash },
        },
      },
      onConditionFailed: () => new InvalidToken(),
    },
  ];
}

/** Voids the account's tokens of a kind (its current one no longer names any): in a transaction. */
export const voidTokens = (userId: string, kind: TokenKind): TxItem => ({ op: { Delete: { TableName: TABLE, Key: keys.currentMailToken(userId, kind) } } });

/** Voids the account's tokens of a kind, alone. */
export async function voidTokensNow(userId: string, kind: TokenKind): Promise<void> {
  await db.send(new DeleteCommand({ TableName: TABLE, Key: keys.currentMailToken(userId, kind) }));
}
