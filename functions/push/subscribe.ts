import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { config } from '../../lib/config';
import { ValidationError } from '../../lib/errors';
import { endpointProblem } from '../../lib/live/endpoint';
import { NOTIFICATION_TYPES, subscribe, view } from '../../lib/live/subscriptions';

const b64url = (bytes: number, what: string) => z.string().check(
  z.regex(/^[A-Za-z0-9_-]+=*$/, 'must be base64url'),
  z.refine((s) => Buffer.from(s, 'base64url').length === bytes, `must be ${what}`),
);

export const body = z.strictObject({
  endpoint: z.string().check(z.minLength(1), z.maxLength(2048)),
  keys: z.strictObject({ p256dh: b64url(65, 'a 65-byte P-256 point'), auth: b64url(16, '16 bytes') }),
  expirationTime: z.optional(z.nullable(z.number())),
  types: z.optional(z.array(z.enum(NOTIFICATION_TYPES)).check(z.minLength(1), z.maxLength(NOTIFICATION_TYPES.length))),
});

export const handler = http({ body }, async ({ body, caller }) => {
  const problem = endpointProblem(body.endpoint, config.stage === 'local');
  if (problem) throw ValidationError.field('endpoint', problem);
  await caller.user();
  const item = await subscribe(caller.userId, caller.sessionId, {
    endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth, types: [...new Set(body.types ?? NOTIFICATION_TYPES)],
  });
  return { status: 201, body: { subscription: view(item) } };
});
