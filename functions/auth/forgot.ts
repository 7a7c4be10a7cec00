import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { requestReset } from '../../lib/auth/forgot';
import { ANONYMOUS, logItem } from '../../lib/audit/records';
import * as f from '../../lib/users/fields';

export const forgotBody = z.strictObject({
  email: f.email(),
});

// The same answer, after the same one write, for every address (lib/auth/recovery.ts).
export const handler = http({ auth: false, body: forgotBody }, async ({ body, trace }) => {
  // The record is the same for every address: no account named, no address kept.
  await requestReset(body.email, logItem(trace, { type: 'PASSWORD_RESET_REQUESTED', description: 'A password reset was requested.', actorId: ANONYMOUS }));
  return { status: 202, body: { message: 'If an account has this address, a password reset e-mail is on its way.' } };
});
