import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { setupTwoFactor } from '../../lib/auth/two-factor';

export const twoFactorSetupBody = z.strictObject({
  password: z.string().check(z.minLength(1), z.maxLength(1024)),
});

export const handler = http({ body: twoFactorSetupBody }, async ({ body, caller, trace, event }) => {
  const setup = await setupTwoFactor(caller, body.password, { sourceIp: event.requestContext?.http?.sourceIp, trace, payload: { body } });
  return { body: setup };
});
