import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { intParam, text } from '../../lib/fields';
import { searchUsers } from '../../lib/graph/search';

export const query = z.strictObject({ query: text(1, 100), limit: intParam(1, 50, 20) });

export const handler = http({ query }, async ({ query, caller }) => {
  return { body: { users: await searchUsers(caller, query.query, query.limit) } };
});
