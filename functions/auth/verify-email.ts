import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { verifyEmail } from '../../lib/auth/email';

// Any string: a token of the wrong form is a 400 INVALID_TOKEN like every other bad token.
export const verifyEmailBody = z.strictObject({
  token: z.string().check(z.minLength(1), z.maxLength(200)),
});

export const handler = http({ auth: false, body: verifyEmailBody }, async ({ body, trace }) => {
  await verifyEmail(body.token, trace, { body });
  return { body: { message: 'Your e-mail address is verified.' } };
});
