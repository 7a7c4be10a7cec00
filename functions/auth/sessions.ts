import { http } from '../../lib/http';
import { listSessions } from '../../lib/auth/sessions';

// Sessions embed no user ids: the caller's block lists are not read.
export const handler = http({ scrubHidden: false }, async ({ caller }) => {
  const user = await caller.user();
  return { body: { sessions: await listSessions(user, caller.sessionId) } };
});
