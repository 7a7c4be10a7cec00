// The suppression list (contract section 16): SES's bounce and complaint events, as the
// configuration set publishes them through SNS, put the address on it (permanent bounces and
// complaints only); the stream's mail reaction then sends it nothing (mail-recovery.test.ts,
// "a suppressed address gets nothing").
import type { SNSEvent } from 'aws-lambda';
import { handler } from '../../functions/mail/suppress';
import { getItem } from '../support/db';
import { uniq } from '../support/factories';
import * as keys from '../../lib/keys';
import { isSuppressed } from '../../lib/mail/reactions';

const snsEvent = (message: unknown): SNSEvent => ({
  Records: [{ EventSource: 'aws:sns', EventVersion: '1.0', EventSubscriptionArn: 'arn', Sns: { Message: JSON.stringify(message) } as SNSEvent['Records'][number]['Sns'] }],
});

it('suppresses a permanently bounced address and a complaining one, once however often told; not a transient bounce', async () => {
  const [hard, soft, complaint] = [uniq('hard'), uniq('soft'), uniq('spam')].map((n) => `${n}@Example.test`);
  const bounce = (address: string, bounceType: string) => ({ eventType: 'Bounce', bounce: { bounceType, bouncedRecipients: [{ emailAddress: address }] }, mail: {} });
  await handler(snsEvent(bounce(hard!, 'Permanent')));
  await handler(snsEvent(bounce(hard!, 'Permanent')));
  await handler(snsEvent(bounce(soft!, 'Transient')));
  await handler(snsEvent({ eventType: 'Complaint', complaint: { complainedRecipients: [{ emailAddress: `Someone <${complaint}>` }] }, mail: {} }));
  expect(await isSuppressed(hard!)).toBe(true);
  expect((await getItem(keys.suppressed(hard!)))).toMatchObject({ type: 'SUPPRESSED', reason: 'Bounce' });
  expect(await isSuppressed(complaint!)).toBe(true);
  expect((await getItem(keys.suppressed(complaint!)))?.reason).toBe('Complaint');
  expect(await isSuppressed(soft!)).toBe(false);
});

it('throws on a message it cannot read, so SNS retries it and then dead-letters it', async () => {
  await expect(handler({ Records: [{ Sns: { Message: 'not json' } }] } as unknown as SNSEvent)).rejects.toThrow();
});
