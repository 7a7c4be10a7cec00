import { http } from '../../lib/http';
import { userListQuery } from '../../lib/fields';
import { edgePage } from '../../lib/graph/lists';
import { presentIds } from '../../lib/graph/present';

export const query = userListQuery();

export const handler = http({ query }, async ({ query, caller }) => {
  const [me, page] = await Promise.all([caller.user(), edgePage('blocked', caller.userId, query.limit, query.cursor)]);
  // Eventually consistent: a profile, not a permission (the page itself is the caller's own blocks).
  const { users } = await presentIds(page.ids, caller.userId, { consistent: false });
  return {
    body: {
      message: 'Blocked users retrieved successfully',
      data: page.ids.filter((id) => users.has(id)).map((id) => users.get(id)!),
      count: me.blockedCount ?? 0,
      pagination: page.pagination,
    },
  };
});
