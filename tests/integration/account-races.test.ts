// The password paths against an account that changed under them (a code review of 2026-11-27):
// a refused token never counts toward the login lock, a deletion goes again from an account a
// profile edit renamed under it, and a login never succeeds on an account deleted since its
// claim was read. Through the real handlers on DynamoDB Local.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { call } from '../support/invoke';
import { makeUser, uniq } from '../support/factories';
import { getItem } from '../support/db';
import { handler as login } from '../../functions/auth/login';
import { handler as logout } from '../../functions/auth/logout';
import { handler as changePassword } from '../../functions/auth/password';
import { handler as deleteMe } from '../../functions/users/delete';
import { handler as editProfileH } from '../../functions/users/edit';
import { handler as register } from '../../functions/auth/register';
import { deleteAccount } from '../../lib/account/delete';
import { suspendAccount } from '../../lib/account/suspend';
import { getUser } from '../../lib/users/repo';
import { editProfile } from '../../lib/users/write';
import { ConditionFailed } from '../../lib/db/transact';
import { MAX_FAILURES } from '../../lib/auth/login-guard';
import { db, TABLE } from '../../lib/db/client';
import * as keys from '../../lib/keys';

const checksOf = async (userId: string) => ((await getItem(keys.loginGuard(keys.user(userId).PK)))?.checks as Set<number> | undefined)?.size ?? 0;
const logIn = (identifier: string, password: string) => call(login, 'POST /auth/login', { body: { identifier, password } });

describe('a token refused by its session', () => {
  it('leaves no mark on the login lock: a stolen token whose session ended cannot lock its account', async () => {
    const u = await makeUser();
    const other = await logIn(u.username, u.password);
    expect(other.status).toBe(200);
    expect((await call(logout, 'POST /auth/logout', { token: other.body.token })).status).toBe(200);
    // Twice the lock's threshold of requests with the ended session's token, each a 401.
    for (let i = 0; i < MAX_FAILURES * 2; i++) {
      const [change, del] = await Promise.all([
        call(changePassword, 'POST /auth/password', { token: other.body.token, body: { currentPassword: 'whatever it is', newPassword: 'a new password' } }),
        call(deleteMe, 'DELETE /users/me', { token: other.body.token, body: { password: 'whatever it is' } }),
      ]);
      expect([change.status, del.status]).toEqual([401, 401]);
    }
    // Before, each left its mark: the owner's own login was then 429 for 15 minutes.
    expect(await checksOf(u.id)).toBe(0);
    expect((await logIn(u.username, u.password)).status).toBe(200);
  });
});

describe('an account deletion', () => {
  it('goes again from the account as it is now when a profile edit renamed it in between, and frees the new names', async () => {
    const u = await makeUser();
    const read = (await getUser(u.id))!;
    const renamed = uniq('ren');
    const edit = await call(editProfileH, 'POST /users/profile/edit', { token: u.token, body: { username: renamed, name: 'Quite Another Name' } });
    expect(edit.status).toBe(200);
    // The account as read before the edit: its old username claim and search terms are gone.
    // Before, the deletion's transaction failed on them, a raw condition failure (a 500).
    await deleteAccount(read, { traceId: `race-del-${u.id}`, scenarioId: '', stepId: '', simTimestamp: Date.now() }, {});
    expect(await getUser(u.id)).toMatchObject({ deletedAt: expect.any(String) });
    expect(await getItem(keys.username(renamed))).toBeUndefined();
    expect(await getItem(keys.email(u.email))).toBeUndefined();
    const again = await call(register, 'POST /auth/register', { body: { name: 'New Owner', username: renamed, email: u.email, password: 'a fresh password' } });
    expect(again.status).toBe(201);
  });

  it('refuses when the password changed in between (401 INVALID_CREDENTIALS), deleting nothing', async () => {
    const u = await makeUser();
    const read = (await getUser(u.id))!;
    expect((await call(changePassword, 'POST /auth/password', { token: u.token, body: { currentPassword: u.password, newPassword: 'changed password' } })).status).toBe(200);
    await call(editProfileH, 'POST /users/profile/edit', { token: u.token, body: { username: uniq('ren') } });
    await expect(deleteAccount(read, { traceId: `race-del2-${u.id}`, scenarioId: '', stepId: '', simTimestamp: Date.now() }, {})).rejects.toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS' });
    expect((await getUser(u.id))?.deletedAt).toBeUndefined();
  });
});

describe('a profile edit', () => {
  it.each(['deletedAt', 'suspendedAt'])('that read its account before %s was set writes nothing over it (its search items would outlive the cleanup)', async (field) => {
    const u = await makeUser();
    const read = (await getUser(u.id))!;
    await db.send(new UpdateCommand({ TableName: TABLE, Key: keys.user(u.id), UpdateExpression: 'SET #f = :now', ExpressionAttributeNames: { '#f': field }, ExpressionAttributeValues: { ':now': new Date().toISOString() } }));
    const trace = { traceId: `race-edit-${u.id}`, scenarioId: '', stepId: '', simTimestamp: Date.now() };
    await expect(editProfile(read, { name: 'Written Too Late' }, trace, {})).rejects.toBeInstanceOf(ConditionFailed);
    expect(await getUser(u.id)).toMatchObject({ name: read.name, updatedAt: read.updatedAt });
  });
});

describe('a suspension', () => {
  const trace = (id: string) => ({ traceId: id, scenarioId: '', stepId: '', simTimestamp: Date.now() });

  it('of an account whose session epoch moved since it was read (its owner changed the password) goes again and suspends it', async () => {
    const [u, mod] = [await makeUser(), await makeUser()];
    const read = (await getUser(u.id))!;
    expect((await call(changePassword, 'POST /auth/password', { token: u.token, body: { currentPassword: u.password, newPassword: 'another password' } })).status).toBe(200);
    // Before, the moved epoch was a 404 for an account that exists.
    expect(await suspendAccount(read, mod.id, trace(`race-susp-${u.id}`), {})).toBe(true);
    expect(await getUser(u.id)).toMatchObject({ suspendedAt: expect.any(String) });
    expect((await logIn(u.username, 'another password')).status).toBe(403);
  });

  it('of an account another moderator suspended meanwhile writes nothing and says so (false); of a deleted one is a 404', async () => {
    const [u, v, mod] = [await makeUser(), await makeUser(), await makeUser()];
    const read = (await getUser(u.id))!;
    expect(await suspendAccount((await getUser(u.id))!, mod.id, trace(`race-susp2a-${u.id}`), {})).toBe(true);
    const suspendedAt = (await getUser(u.id))!.suspendedAt;
    expect(await suspendAccount(read, mod.id, trace(`race-susp2b-${u.id}`), {})).toBe(false);
    expect((await getUser(u.id))!.suspendedAt).toBe(suspendedAt);
    const readV = (await getUser(v.id))!;
    expect((await call(deleteMe, 'DELETE /users/me', { token: v.token, body: { password: v.password } })).status).toBe(200);
    await expect(suspendAccount(readV, mod.id, trace(`race-susp3-${v.id}`), {})).rejects.toMatchObject({ status: 404 });
  });
});

describe('a login', () => {
  it('of an account deleted since its claim was read is 401 INVALID_CREDENTIALS, no session, no mark', async () => {
    const u = await makeUser();
    // The moment between the login's read of the claim and its read of the user item: the
    // account is deleted (deletedAt set) while the claim still names it.
    await db.send(new UpdateCommand({ TableName: TABLE, Key: keys.user(u.id), UpdateExpression: 'SET deletedAt = :now', ExpressionAttributeValues: { ':now': new Date().toISOString() } }));
    const res = await logIn(u.username, u.password);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 401, code: 'INVALID_CREDENTIALS' });
    expect(await checksOf(u.id)).toBe(0);
  });
});
