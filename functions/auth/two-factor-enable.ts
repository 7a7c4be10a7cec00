import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { enableTwoFactor } from '../../lib/auth/two-factor';
import { code } from '../../lib/auth/code-fields';

export const twoFactorEnableBody = z.strictObject({ code: code(false) });

export const handler = http({ body: twoFactorEnableBody }, async ({ body, caller, trace, event }) => {
  const recoveryCodes = await enableTwoFactor(caller, body.code, { sourceIp: event.requestContext?.http?.sourceIp, trace, payload: { body } });
  return { body: { recoveryCodes } };
});
