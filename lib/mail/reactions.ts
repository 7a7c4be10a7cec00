// The change stream's e-mail work (contract section 16), idempotent per change:
//
// - `mail-send`: a new MAIL item (lib/mail/outbox.ts) is read again (consistent), and sent
//   unless its address is suppressed or a newer e-mail of its token's kind superseded it; a kind
//   with a token gets it now (lib/mail/tokens.ts). The item is deleted once done, so a record
//   delivered again finds nothing to do. A failed send throws: the stream retries it, then
//   dead-letters it. (A send whose delete failed is sent again on the retry, with a new token
//   voiding the first: at least once, never lost.)
// - `password-forgot`: a reset request (POST /auth/password/forgot wrote it and answered 202
//   at once, the same for every address) is looked up here: an address no live account holds,
//   or an account past RESET_RATE, gets nothing; otherwise the reset e-mail is queued, under the
//   request's id, so a replay queues it once. The request is deleted when decided.
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import * as keys from '../keys';
import { config } from '../config';
import { typeOf, type Change, type Reaction } from '../events/changes';
import type { UserItem } from '../users/model';
import { mailItem, type MailItem } from './outbox';
import { isMailKind, renderMail } from './templates';
import { issueToken, TOKEN_OF } from './tokens';
import { sendEmail } from './ses';
import { admitMail, RESET_RATE } from './rate';
import { logger } from '../log';

const read = async <T>(key: { PK: string; SK: string }): Promise<T | undefined> =>
  (await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }))).Item as T | undefined;
const remove = (key: { PK: string; SK: string }) => db.send(new DeleteCommand({ TableName: TABLE, Key: key }));

/** Whether an address is on the suppression list (a bounce or a complaint, lib/mail/suppression.ts). */
export const isSuppressed = async (address: string) => (await read(keys.suppressed(address))) !== undefined;

export async function sendMail(id: string): Promise<void> {
  const mail = await read<MailItem>(keys.mail(id));
  if (!mail || !isMailKind(mail.kind)) return;
  const done = (outcome: string) => {
    logger.info('mail_done', { mailId: id, kind: mail.kind, outcome });
    return remove(keys.mail(id));
  };
  if (await isSuppressed(mail.to)) return void (await done('suppressed'));
  const tokenKind = TOKEN_OF[mail.kind];
  let token: string | undefined;
  if (tokenKind) {
    token = await issueToken({ kind: tokenKind, userId: mail.userId, address: mail.to, mailId: mail.id });
    if (!token) return void (await done('superseded'));
  }
  await sendEmail(mail.to, renderMail(mail.kind, { appUrl: config.mail.appUrl, data: mail.data, token }));
  await done('sent');
}

export interface ResetRequest {
  PK: string;
  SK: string;
  type: 'RESET_REQUEST';
  id: string;
  email: string;
  expiresAt: number;
}

export async function answerResetRequest(request: Pick<ResetRequest, 'id' | 'email'>): Promise<void> {
  const key = keys.resetRequest(request.id);
  // Decided already (a replay): the request is deleted last, after its e-mail is queued.
  const [pending, queued] = await Promise.all([read(key), read(keys.mail(request.id))]);
  if (!pending) return;
  if (queued) return void (await remove(key));
  const claim = await read<{ userId: string }>(keys.email(request.email));
  const user = claim && (await read<UserItem>(keys.user(claim.userId)));
  if (user && !user.deletedAt && !user.suspendedAt && user.email === request.email
    && (await admitMail(user.id, request.id, RESET_RATE)) === 0) {
    try {
      await db.send(new PutCommand({
        TableName: TABLE,
        Item: mailItem({ id: request.id, userId: user.id, to: user.email, kind: 'PASSWORD_RESET', data: { username: user.username } }),
        ConditionExpression: 'attribute_not_exists(PK)',
      }));
    } catch (err) {
      if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
    }
  }
  await remove(key);
}

export const mailReactions: Reaction[] = [
  {
    name: 'mail-send',
    matches: (c: Change) => c.event === 'INSERT' && typeOf(c) === 'MAIL',
    run: (c) => sendMail(String(c.newImage!.id)),
  },
  {
    name: 'password-forgot',
    matches: (c: Change) => c.event === 'INSERT' && typeOf(c) === 'RESET_REQUEST',
    run: (c) => answerResetRequest(c.newImage as unknown as ResetRequest),
  },
];
