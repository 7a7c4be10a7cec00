// Sending through Amazon SES (API v2 SendEmail) from MAIL_FROM, with the stage's configuration
// set (its bounces and complaints reach the suppression list, lib/mail/suppression.ts). Locally
// the same call goes to npm start's aws-ses-v2-local (SES_ENDPOINT), whose GET /store lists
// every message.
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { config } from '../config';
import type { Rendered } from './templates';

const mail = config.mail;
const client = new SESv2Client({
  region: config.region,
  maxAttempts: 3,
  // The local server takes any signature; its account is a placeholder, valid on loopback only.
  ...(mail.endpoint ? { endpoint: mail.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
});

/** Sends one message to one address; throws when SES refuses it or cannot be reached (the stream retries). */
export async function sendEmail(to: string, message: Rendered): Promise<string | undefined> {
  const res = await client.send(new SendEmailCommand({
    FromEmailAddress: mail.from,
    Destination: { ToAddresses: [to] },
    Content: {
      Simple: {
        Subject: { Data: message.subject, Charset: 'UTF-8' },
        Body: { Text: { Data: message.text, Charset: 'UTF-8' }, Html: { Data: message.html, Charset: 'UTF-8' } },
      },
    },
    ...(mail.configurationSet ? { ConfigurationSetName: mail.configurationSet } : {}),
  }));
  return res.MessageId;
}
