import { http } from '../../lib/http';
import { listSessions } from '../../lib/auth/sessions';

// Sessions embed no user ids: the caller's block lists are not read.
export const handler = http({ scrubHidden: false }, async ({ caller }) => ({
  body: { sessions: await listSessions(caller.userId, caller.sessionId, caller.user()) },
}));
