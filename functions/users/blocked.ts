import { http } from '../../lib/http';
import { userListQuery } from '../../lib/fields';
import { edgePage } from '../../lib/graph/lists';
import { presentIds } from '../../lib/graph/present';
import { visibleBlocks } from '../../lib/graph/hidden';
import { namesOnly } from '../../lib/users/model';

export const query = userListQuery();

export const handler = http({ query }, async ({ query, caller }) => {
  const [me, lists, page] = await Promise.all([caller.user(), caller.blockLists(), edgePage('blocked', caller.userId, query.limit, query.cursor)]);
  // An account hidden from everyone (suspended, or deleted and not cleaned up yet) leaves this
  // list too, and the total with it; unsuspended, it is back in both (contract sections 13, 15).
  const gone = new Set(lists.gone);
  const ids = page.ids.filter((id) => !gone.has(id));
  const { users } = await presentIds(ids, caller.userId);
  // One who blocks the caller back shows only its id and username (contract section 6).
  const blocksMe = new Set(lists.blockedBy);
  return {
    body: {
      message: 'Blocked users retrieved successfully',
      data: ids.filter((id) => users.has(id)).map((id) => (blocksMe.has(id) ? namesOnly(users.get(id)!) : users.get(id)!)),
      count: Math.max(0, (me.blockedCount ?? 0) - (lists.blocked.length - visibleBlocks(lists).length)),
      pagination: page.pagination,
    },
  };
});
