import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { config } from '../../lib/config';
import { ValidationError } from '../../lib/errors';
import { endpointProblem } from '../../lib/live/endpoint';
import { NOTIFICATION_TYPES, subscribe, view } from '../../lib/live/subscriptions';
import { logItem } from '../../lib/audit/records';

// Unpadded base64url, as a browser's PushSubscription.toJSON() gives it: 87 characters for the
// 65-byte uncompressed P-256 point (0x04 first), 22 for the 16-byte auth secret.
const P256DH = /^B[A-Za-z0-9_-]{86}$/;
const AUTH = /^[A-Za-z0-9_-]{21}[AQgw]$/;

export const body = z.strictObject({
  endpoint: z.string().check(z.minLength(1), z.maxLength(2048)),
  keys: z.strictObject({
    p256dh: z.string().check(z.regex(P256DH, 'must be the base64url of a 65-byte uncompressed P-256 point')),
    auth: z.string().check(z.regex(AUTH, 'must be the base64url of 16 bytes')),
  }),
  // Accepted and ignored (contract section 20): the push service says when a subscription ends.
  expirationTime: z.optional(z.nullable(z.number().check(z.gte(0)))),
  types: z.optional(z.array(z.enum(NOTIFICATION_TYPES)).check(z.minLength(1), z.maxLength(NOTIFICATION_TYPES.length))),
});

export const handler = http({ body }, async ({ body, caller, trace }) => {
  const problem = endpointProblem(body.endpoint, config.stage === 'local');
  if (problem) throw ValidationError.field('endpoint', problem);
  await caller.user();
  const item = await subscribe(caller.userId, caller.sessionId, {
    endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth, types: [...new Set(body.types ?? NOTIFICATION_TYPES)],
  }, logItem(trace, { type: 'PUSH_SUBSCRIBED', description: 'A Web Push subscription was added.', actorId: caller.userId, payload: { types: body.types ?? null } }));
  return { status: 201, body: { subscription: view(item) } };
});
