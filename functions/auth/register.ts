import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { hashPassword } from '../../lib/users/password';
import { issue, newSession, sessionPut, userAgentOf } from '../../lib/auth/sessions';
import { refuseClaimed, registerUser } from '../../lib/users/write';
import { toBaseUser } from '../../lib/users/model';
import * as f from '../../lib/users/fields';
import { allSettled } from '../../lib/settle';
import { mailPut } from '../../lib/mail/outbox';

export const registerBody = z.strictObject({
  name: f.name(),
  username: f.username(),
  email: f.email(),
  password: f.password(),
});

export const handler = http({ auth: false, body: registerBody }, async ({ body, trace, headers, event }) => {
  const { password, ...profile } = body;
  // The hash runs on a thread of its own while the claims are read, so a cold start's first
  // connection opens meanwhile. A taken username or e-mail is a 409 without the transaction,
  // after the hash all the same: work left in the thread pool would run on into the next
  // invocation (Lambda freezes the process once the answer is sent).
  const [, passwordHash] = await allSettled([refuseClaimed(profile.username, profile.email), hashPassword(password)]);
  let session: ReturnType<typeof newSession> | undefined;
  // The first session and the verification e-mail (contract section 16) are put in the
  // registration's own transaction.
  const user = await registerUser({ ...profile, passwordHash }, trace, { body }, (u) => {
    session = newSession(u, userAgentOf(headers['user-agent'] ?? event.requestContext?.http?.userAgent));
    return [sessionPut(session.item), mailPut({ userId: u.id, to: u.email, kind: 'VERIFY_EMAIL', data: { username: u.username } })];
  });
  return {
    status: 201,
    body: {
      message: 'Registration successful',
      ...(await issue(session!.item, session!.refreshToken)),
      user: toBaseUser(user, { followers: [], following: [], bookmarks: [], blocked_users: [] }, true),
    },
  };
});
