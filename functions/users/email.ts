import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { requestEmailChange } from '../../lib/auth/email-change';
import * as f from '../../lib/users/fields';

export const changeEmailBody = z.strictObject({
  email: f.email(),
  password: z.string().check(z.minLength(1), z.maxLength(1024)),
});

export const handler = http({ body: changeEmailBody }, async ({ body, caller, trace, event }) => {
  await requestEmailChange(caller, body, { sourceIp: event.requestContext?.http?.sourceIp, trace, payload: { body } });
  return { status: 202, body: { message: 'A confirmation e-mail is on its way to the new address. Your account keeps its address until it is confirmed.' } };
});
