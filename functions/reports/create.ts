import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { id, text } from '../../lib/fields';
import { REASONS, TARGET_TYPES, fileReport, toReport } from '../../lib/reports/reports';
import { ownerOf, reportable } from '../../lib/reports/targets';

export const body = z.strictObject({
  targetType: z.enum(TARGET_TYPES),
  targetId: id(),
  reason: z.enum(REASONS),
  note: z.optional(text(0, 500)),
});

export const handler = http({ body }, async ({ body, caller, trace }) => {
  const [, target] = await Promise.all([caller.user(), reportable(caller.userId, body.targetType, body.targetId)]);
  const { report, created } = await fileReport(caller.userId, { type: body.targetType, id: body.targetId, ownerId: ownerOf(target) }, body.reason, body.note, trace, { body });
  const reply = { body: { message: created ? 'Report filed' : 'Report recorded with the open report of this target', report: toReport(report) } };
  return created ? { status: 201, ...reply } : reply;
});
