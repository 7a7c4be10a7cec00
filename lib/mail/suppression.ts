// The suppression list (contract section 16): an address that bounced for good, or whose owner
// complained, is sent nothing again. One item per address (keys.suppressed), written from SES's
// event publishing (functions/mail/suppress.ts) and read by the mail reaction before each send.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import * as keys from '../keys';
import { logger } from '../log';

interface Feedback {
  eventType?: string;
  notificationType?: string;
  bounce?: { bounceType?: string; bouncedRecipients?: { emailAddress?: string }[] };
  complaint?: { complainedRecipients?: { emailAddress?: string }[] };
}

/** The addresses an SES event publishing message (or a notification) says to suppress, and why: permanent bounces and complaints. */
export function suppressedBy(message: string): { addresses: string[]; reason: string } {
  const m = JSON.parse(message) as Feedback;
  const type = m.eventType ?? m.notificationType;
  if (type === 'Bounce' && m.bounce?.bounceType === 'Permanent') {
    return { addresses: (m.bounce.bouncedRecipients ?? []).map((r) => String(r.emailAddress ?? '')).filter(Boolean), reason: 'Bounce' };
  }
  if (type === 'Complaint') {
    return { addresses: (m.complaint?.complainedRecipients ?? []).map((r) => String(r.emailAddress ?? '')).filter(Boolean), reason: 'Complaint' };
  }
  return { addresses: [], reason: String(type) };
}

/** Puts each address the message names on the list (a repeat changes nothing). */
export async function suppressFromFeedback(message: string, now = new Date()): Promise<string[]> {
  const { addresses, reason } = suppressedBy(message);
  for (const raw of addresses) {
    // "Name <a@b>" as SES may give it: the address alone, lower case.
    const address = (/<([^>]+)>/.exec(raw)?.[1] ?? raw).trim().toLowerCase();
    await db.send(new PutCommand({ TableName: TABLE, Item: { ...keys.suppressed(address), type: 'SUPPRESSED', reason, suppressedAt: now.toISOString() } }));
    logger.info('mail_suppressed', { reason });
  }
  return addresses;
}
