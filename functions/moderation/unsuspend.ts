import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { requireScope } from '../../lib/http/scope';
import { id } from '../../lib/fields';
import { NotFound } from '../../lib/errors';
import { recordNoChange } from '../../lib/audit/records';
import { MODERATE } from '../../lib/reports/reports';
import { unsuspendAccount } from '../../lib/account/suspend';
import { getUser } from '../../lib/users/repo';

export const params = z.strictObject({ user_id: id() });

export const handler = http({ params, scope: requireScope(MODERATE) }, async ({ params, caller, trace }) => {
  const [, user] = await Promise.all([caller.user(), getUser(params.user_id)]);
  if (!user || user.deletedAt) throw new NotFound('user');
  if (!(await unsuspendAccount(user, caller.userId, trace, { params }))) {
    await recordNoChange(trace, { type: 'USER_UNSUSPENDED', actorId: caller.userId, payload: { params } }, `User @${user.username} is not suspended; nothing changed.`);
    return { body: { message: 'The account is not suspended; nothing changed' } };
  }
  return { body: { message: 'Account unsuspended' } };
});
