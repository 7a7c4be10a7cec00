import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { requireScope } from '../../lib/http/scope';
import { intParam, listCursor } from '../../lib/fields';
import { MODERATE, STATUSES, reportPage, toReport } from '../../lib/reports/reports';
import { targetViews } from '../../lib/reports/targets';

export const query = z.strictObject({
  status: z._default(z.enum(STATUSES), 'open'),
  limit: intParam(1, 50, 20),
  cursor: z.optional(listCursor()),
});

// A GET: lib/http removes the users hidden from the moderator from the targets' embedded arrays.
export const handler = http({ query, scope: requireScope(MODERATE) }, async ({ query }) => {
  const page = await reportPage(query.status, query.limit, query.cursor);
  const targets = await targetViews(page.items);
  return {
    body: {
      reports: page.items.map((r) => ({ ...toReport(r), reporters: r.reporters, target: targets.get(r.id) ?? null })),
      pagination: { hasMore: page.next !== null, nextCursor: page.next },
    },
  };
});
