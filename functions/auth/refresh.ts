import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { refreshSession } from '../../lib/auth/sessions';

// Any string: a token that is not one of ours is a 401 like a used or ended one, not a 400
// that would tell a made-up token from a real one.
export const refreshBody = z.strictObject({
  refreshToken: z.string().check(z.minLength(1), z.maxLength(512)),
});

export const handler = http({ auth: false, body: refreshBody }, async ({ body, trace }) => ({
  body: { ...(await refreshSession(body.refreshToken, trace, { body })) },
}));
