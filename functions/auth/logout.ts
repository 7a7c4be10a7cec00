import { http } from '../../lib/http';
import { endSession } from '../../lib/auth/sessions';

export const handler = http({}, async ({ caller, trace }) => {
  const user = await caller.user();
  // Already ended by a racing request: the session is ended all the same.
  await endSession(user, caller.sessionId, trace, {
    type: 'USER_LOGGED_OUT',
    description: `User @${user.username} logged out (session ${caller.sessionId}).`,
    actorId: caller.userId,
    payload: {},
  });
  return { body: { message: 'Logged out successfully' } };
});
