import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { id } from '../../lib/fields';
import { endSession } from '../../lib/auth/sessions';
import { NotFound } from '../../lib/errors';

export const params = z.strictObject({ session_id: id() });

export const handler = http({ params }, async ({ params, caller, trace }) => {
  const user = await caller.user();
  // The key is in the caller's own partition: another user's session is simply not found.
  const ended = await endSession(user, params.session_id, trace, {
    type: 'SESSION_ENDED',
    description: `User @${user.username} ended session ${params.session_id}.`,
    actorId: caller.userId,
    payload: { params },
  });
  if (!ended) throw new NotFound('session');
  return { body: { message: 'Session ended successfully' } };
});
