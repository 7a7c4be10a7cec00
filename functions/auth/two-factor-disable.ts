import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { disableTwoFactor } from '../../lib/auth/two-factor';
import { code } from '../../lib/auth/code-fields';

export const twoFactorDisableBody = z.strictObject({
  password: z.string().check(z.minLength(1), z.maxLength(1024)),
  code: code(true),
});

export const handler = http({ body: twoFactorDisableBody }, async ({ body, caller, trace, event }) => {
  const changed = await disableTwoFactor(caller, body, { sourceIp: event.requestContext?.http?.sourceIp, trace, payload: { body } });
  return { body: { message: changed ? 'Two-factor sign-in is off' : 'Two-factor sign-in was already off' } };
});
