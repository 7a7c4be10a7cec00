import { http } from '../../lib/http';
import { resendVerification } from '../../lib/auth/email';

export const handler = http({}, async ({ caller, trace }) => {
  const done = await resendVerification(caller, trace, {});
  return done === 'sent'
    ? { status: 202, body: { message: 'A new verification e-mail is on its way.' } }
    : { body: { message: 'There is no address to verify.' } };
});
