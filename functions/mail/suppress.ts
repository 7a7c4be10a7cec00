// SES's bounces and complaints (the stage's configuration set, through SNS: resources/mail.yml)
// put the address on the suppression list; the stream's mail reaction sends nothing to an
// address on it (lib/mail/reactions.ts). Idempotent: a Put of the address's fixed key.
import type { SNSEvent } from 'aws-lambda';
import { suppressFromFeedback } from '../../lib/mail/suppression';

export const handler = async (event: SNSEvent): Promise<void> => {
  for (const record of event.Records ?? []) await suppressFromFeedback(record.Sns.Message);
};
