import { http } from '../../lib/http';
import { userListQuery } from '../../lib/fields';
import { edgePage } from '../../lib/graph/lists';
import { listedUsers } from '../../lib/graph/user-list';

export const query = userListQuery();

// The accounts the caller muted, newest mute first (contract section 18).
export const handler = http({ query }, async ({ query, caller }) => {
  const page = edgePage('muted', caller.userId, query.limit, query.cursor, caller.hidden());
  page.catch(() => undefined);
  const { users } = await listedUsers(caller, page.then((p) => p.ids), []);
  return { body: { users, pagination: (await page).pagination } };
});
