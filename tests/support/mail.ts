// The messages the local mail server (aws-ses-v2-local, started by the global setup) received:
// real messages, sent by the stream's mail reaction through the SES v2 client.
import { eventually } from './stream';

export interface SentMail {
  messageId: string;
  from: string;
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
  at: number;
}

/** Every message sent to `address` so far, oldest first. */
export async function mailsTo(address: string): Promise<SentMail[]> {
  const res = await fetch(`${process.env.SES_ENDPOINT}/store`);
  const { emails } = (await res.json()) as { emails: SentMail[] };
  return emails.filter((e) => e.destination.to.some((to) => to.toLowerCase() === address.toLowerCase()));
}

/** Waits until `address` has received `count` messages (default: one more than `after`), and answers them all. */
export async function waitForMails(address: string, count: number): Promise<SentMail[]> {
  return eventually(() => mailsTo(address), (mails) => mails.length >= count);
}

/** The token a message shows (`?token=...` in its link). */
export function tokenOf(mail: SentMail): string {
  const m = /[?&]token=([^\s&"<]+)/.exec(mail.body.text ?? '');
  if (!m) throw new Error(`no token in the message "${mail.subject}"`);
  return decodeURIComponent(m[1]!);
}
