// POST /users/me/email (contract section 16): the request of an e-mail change. Apart from
// ./email.ts: it checks a password (the native Argon2 package), which verification and resend
// never do (resources/argon2-package.js ships it only to the functions that hash).
import { TABLE } from '../db/client';
import { transact } from '../db/transact';
import * as keys from '../keys';
import { logItem } from '../audit/records';
import type { TraceContext } from '../audit/context';
import { upgradeHash } from '../users/rehash';
import { mailPut } from '../mail/outbox';
import { TOKEN_LIFETIME_MS } from '../mail/tokens';
import type { Caller } from './caller';
import { admit, confirmPassword, release, withdraw } from './login-guard';
import { allSettled } from '../settle';
import { emailTaken, readItem } from './email';

/**
 * POST /users/me/email: the password checked under the login lock (a wrong one is 401 and counts),
 * the address refused if any account holds it (409, the caller's own included), then the pending
 * change recorded and the confirmation queued to the new address. The account keeps its address.
 */
export async function requestEmailChange(
  caller: Caller, input: { email: string; password: string },
  ctx: { sourceIp: string | undefined; trace: TraceContext; payload: Record<string, unknown> },
): Promise<void> {
  const email = input.email.toLowerCase();
  const admitted = admit({ userId: caller.userId }, ctx.sourceIp);
  const [{ user, attempt }, claim] = await allSettled([
    caller.user().catch((err) => withdraw(admitted, err)).then(async (user) => ({ user, attempt: await confirmPassword(user, input.password, admitted) })),
    readItem<{ userId: string }>(keys.email(email)),
    admitted,
  ]);
  // A right password: the lock's mark goes, and a hash of weaker parameters is replaced.
  await allSettled([release(attempt), upgradeHash(user, input.password)]);
  if (claim) throw emailTaken();
  const now = Date.now();
  const pending = { ...keys.pendingEmail(user.id), type: 'PENDING_EMAIL', address: email, validUntil: now + TOKEN_LIFETIME_MS.EMAIL_CHANGE, expiresAt: Math.floor(now / 1000) + 2 * 86_400 };
  await transact([
    { op: { Put: { TableName: TABLE, Item: pending } } },
    mailPut({ userId: user.id, to: email, kind: 'EMAIL_CHANGE', data: { username: user.username } }),
    logItem(ctx.trace, {
      type: 'EMAIL_CHANGE_REQUESTED',
      description: `User @${user.username} asked to change their e-mail address.`,
      actorId: user.id,
      payload: ctx.payload,
    }),
  ]);
}

