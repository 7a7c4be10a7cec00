import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { intParam } from '../../lib/fields';
import { suggest } from '../../lib/graph/suggest';

export const query = z.strictObject({ limit: intParam(1, 50, 10) });

export const handler = http({ query }, async ({ query, caller }) => {
  return { body: { users: await suggest(caller, query.limit) } };
});
