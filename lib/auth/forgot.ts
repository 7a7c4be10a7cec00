// POST /auth/password/forgot (contract section 16) never tells whether an address has an
// account, by construction: whatever the address, the request validates the body, writes one
// item (a reset request under a fresh id, holding the address) and answers 202. The change
// stream decides the rest (lib/mail/reactions.ts answerResetRequest: the lookup, the limit of
// 3 per account per hour, the e-mail). Nothing here reads, hashes or branches on the address.
import { TABLE } from '../db/client';
import { transact, type TxItem } from '../db/transact';
import * as keys from '../keys';
import { newId } from '../ids';

/** How long an unanswered reset request is kept (the stream answers it within seconds, then deletes it). */
const REQUEST_KEEP_SECONDS = 86_400;

/**
 * POST /auth/password/forgot: the one write, the same for every address: the request and its
 * trace record (`log`, which names no account and holds no address) in one transaction.
 */
export async function requestReset(email: string, log: TxItem): Promise<void> {
  const id = newId();
  await transact([
    { op: { Put: { TableName: TABLE, Item: { ...keys.resetRequest(id), type: 'RESET_REQUEST', id, email: email.toLowerCase(), expiresAt: Math.floor(Date.now() / 1000) + REQUEST_KEEP_SECONDS } } } },
    log,
  ]);
}

