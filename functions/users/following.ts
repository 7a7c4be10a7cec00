import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { identifier, userListQuery } from '../../lib/fields';
import { userList } from '../../lib/graph/user-list';

export const params = z.strictObject({ identifier: identifier() });
export const query = userListQuery();

export const handler = http({ params, query }, async ({ params, query, caller }) => {
  const { users, pagination } = await userList('following', params.identifier, caller, query.limit, query.cursor);
  return { body: { following: users, pagination } };
});
