import * as z from 'zod/mini';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { http } from '../../lib/http';
import { trimmedLengthPattern } from '../../lib/fields';
import { db, TABLE } from '../../lib/db/client';
import { transact } from '../../lib/db/transact';
import * as keys from '../../lib/keys';
import { DUMMY_HASH, deriveKey, keyMatches, saltOf, verifyPassword } from '../../lib/users/password';
import { allSettled } from '../../lib/settle';
import { issue, newSession, sessionPut, userAgentOf } from '../../lib/auth/sessions';
import { admit, failed, release } from '../../lib/auth/login-guard';
import { Forbidden, InvalidCredentials } from '../../lib/errors';
import { getUser, EMBED_LIMIT } from '../../lib/users/repo';
import { ownEdgesSeen } from '../../lib/graph/hidden';
import { toBaseUser } from '../../lib/users/model';
import { saltClaim } from '../../lib/users/write';
import { logItem } from '../../lib/audit/records';
import { diffState } from '../../lib/audit/diff';

const codePoints = (s: string) => [...s].length;
export const loginBody = z.strictObject({
  // Lengths in code points (as JSON Schema counts them), checked before lower-casing (which can lengthen).
  identifier: z.string().check(
    z.trim(),
    z.refine((s) => codePoints(s) >= 1 && codePoints(s) <= 254, 'must be a username or an e-mail address of 1-254 characters'),
    z.toLowerCase(),
    z.meta({ minLength: 1, pattern: trimmedLengthPattern(1, 254), description: 'a username or an e-mail address; trimmed, then 1-254 characters' }),
  ),
  password: z.string().check(
    z.refine((s) => codePoints(s) >= 1 && codePoints(s) <= 1024, 'must be 1-1024 characters long'),
    z.meta({ minLength: 1, maxLength: 1024 }),
  ),
});

export const handler = http({ auth: false, body: loginBody }, async ({ body, trace, headers, event }) => {
  const claim = body.identifier.includes('@') ? keys.email(body.identifier) : keys.username(body.identifier);
  // Strongly consistent: logging in right after registering must find the new claim.
  const res = await db.send(new GetCommand({ TableName: TABLE, Key: claim, ConsistentRead: true }));
  const userId = res.Item?.userId as string | undefined;
  // The claim carries the salt of the account's hash (lib/users/write.ts claimItem), so scrypt
  // starts now, beside the read of the user item, as it does for an unknown account (with the
  // dummy hash's): both paths hash from the same point. A claim without a usable salt is
  // checked after that read, as are the rare ones whose salt the hash no longer has (a
  // password change that could not update them).
  const seenSalt = res.Item?.salt;
  const salt = userId ? saltOf(seenSalt) : saltOf(DUMMY_HASH);
  const early = salt ? deriveKey(body.password, salt).catch(() => undefined) : undefined;
  // The edge lists of the answer are read while scrypt runs: they need only the id, and
  // waiting for the password check would put two more round trips on every login.
  const edgesRead = userId ? ownEdgesSeen(userId, EMBED_LIMIT.single) : Promise.resolve(undefined);
  const check = async () => {
    // The check is admitted by the login lock beside the reads and the hash (a locked account,
    // or 10 failed or running checks within 15 minutes: 429), before its verdict is told.
    const [[user, attempt], key] = await allSettled([
      userId ? allSettled([getUser(userId), admit(userId)]) : Promise.resolve([undefined, undefined] as const),
      early,
    ]);
    // Unknown account or wrong password: the same scrypt work, the same answer. The early key
    // serves only a hash of the salt it was derived with; any other is hashed now.
    const stored = user?.passwordHash ?? DUMMY_HASH;
    const valid = key !== undefined && saltOf(stored) === salt ? keyMatches(key, stored) : await verifyPassword(body.password, stored);
    if (!user || !valid) {
      if (attempt) await failed(attempt);
      throw new InvalidCredentials();
    }
    // An account deleted since its claim was read is no account: as unknown, the mark withdrawn
    // (its partition is being swept; a session written there would be refused anyway).
    if (user.deletedAt) {
      await release(attempt!);
      throw new InvalidCredentials();
    }
    // Told only to whoever knows the password (contract section 15: suspended until unsuspended).
    if (user.suspendedAt) {
      await release(attempt!);
      throw new Forbidden('This account is suspended.');
    }
    return { user, attempt: attempt! };
  };
  // Every refusal waits for the edge lists' reads too: nothing of the request runs past its
  // answer. A check that passed found the account, so its edges were read (not undefined).
  const [{ user, attempt }, edges] = await allSettled([check(), edgesRead]);
  // The new session and the record of the login, in one transaction.
  const session = newSession(user, userAgentOf(headers['user-agent'] ?? event.requestContext?.http?.userAgent));
  await allSettled([
    // A right password is no failure: its check leaves the login lock's list.
    release(attempt),
    // A claim without the hash's salt (written before claims kept it, or left behind by a race)
    // takes it now, unless it changed since it was read, so the next login hashes early.
    saltOf(user.passwordHash) === salt ? undefined : saltClaim(claim, user.id, user.passwordHash, { seen: seenSalt }),
    transact([
      sessionPut(session.item),
      logItem(trace, {
        type: 'USER_LOGGED_IN',
        description: `User @${user.username} logged in (session ${session.item.id}).`,
        actorId: user.id,
        payload: { body },
        // The record a login creates is its session.
        diff: diffState(null, { _id: session.item.id, createdAt: session.item.createdAt, userAgent: session.item.userAgent }),
      }),
    ]),
  ]);
  return {
    body: { message: 'Login successful', ...(await issue(session.item, session.refreshToken)), user: toBaseUser(user, edges!, true) },
  };
});
