// The outbox (contract section 16): an e-mail is an item (type MAIL) written in the same
// transaction as the change it reports, or alone, and sent by the table's change stream
// (lib/mail/reactions.ts): mail never holds a request up or fails it, and a change never
// commits without its e-mail (or the reverse). A message whose kind carries a token gets its
// token when it is sent (lib/mail/tokens.ts): the item holds no secret. The stream deletes the
// item once it is sent (or not to be sent); one it could not send expires (TTL) MAIL_KEEP_DAYS
// after it was queued.
import * as keys from '../keys';
import { TABLE } from '../db/client';
import { transact, type TxItem } from '../db/transact';
import { newId } from '../ids';
import type { MailData, MailKind } from './templates';

export const MAIL_KEEP_DAYS = 3;

export interface MailItem {
  PK: string;
  SK: string;
  type: 'MAIL';
  id: string;
  userId: string;
  /** The recipient's address, lower case. */
  to: string;
  kind: MailKind;
  data: MailData;
  createdAt: string;
  expiresAt: number;
}

export interface NewMail {
  userId: string;
  to: string;
  kind: MailKind;
  data?: MailData;
  /** The message's id (a ULID), when the caller needs one fixed: a replayed change then queues it once. */
  id?: string;
}

export function mailItem(m: NewMail, now = Date.now()): MailItem {
  const id = m.id ?? newId();
  return {
    ...keys.mail(id),
    type: 'MAIL',
    id,
    userId: m.userId,
    to: m.to.toLowerCase(),
    kind: m.kind,
    data: m.data ?? {},
    createdAt: new Date(now).toISOString(),
    expiresAt: Math.floor(now / 1000) + MAIL_KEEP_DAYS * 86_400,
  };
}

/** The TransactWrite `Put` of a new e-mail, for the transaction of the change it reports. */
export function mailPut(m: NewMail): TxItem {
  return { op: { Put: { TableName: TABLE, Item: mailItem(m), ConditionExpression: 'attribute_not_exists(PK)' } } };
}

/** Queues one e-mail on its own. */
export async function queueMail(m: NewMail): Promise<void> {
  await transact([mailPut(m)]);
}
