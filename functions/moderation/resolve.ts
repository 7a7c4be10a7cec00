import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { requireScope } from '../../lib/http/scope';
import { id, text } from '../../lib/fields';
import { ACTIONS, MODERATE } from '../../lib/reports/reports';
import { resolveReport } from '../../lib/reports/resolve';

export const params = z.strictObject({ report_id: id() });
export const body = z.strictObject({
  action: z.enum(ACTIONS),
  note: z.optional(text(0, 500)),
});

export const handler = http({ params, body, scope: requireScope(MODERATE) }, async ({ params, body, caller, trace }) => {
  const report = await resolveReport(
    { reportId: params.report_id, action: body.action, note: body.note, moderatorId: caller.userId, trace, payload: { params, body } },
    caller.user(),
  );
  return { body: { message: 'Report resolved', report } };
});
