import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { requireScope } from '../../lib/http/scope';
import { id, text } from '../../lib/fields';
import { transact } from '../../lib/db/transact';
import { logItem } from '../../lib/audit/records';
import { SelfAction, ValidationError } from '../../lib/errors';
import { ACTIONS, MODERATE, OwnerUnknown, openReportOf, ownerIdOf, resolution, resolved, toReport } from '../../lib/reports/reports';
import { ownerOf, targetRecord } from '../../lib/reports/targets';
import { deletePost } from '../../lib/posts/write';
import { deleteComment } from '../../lib/comments/delete';
import { suspendAccount } from '../../lib/account/suspend';
import { getUser } from '../../lib/users/repo';
import { getComment } from '../../lib/comments/model';

export const params = z.strictObject({ report_id: id() });
export const body = z.strictObject({
  action: z.enum(ACTIONS),
  note: z.optional(text(0, 500)),
});

export const handler = http({ params, body, scope: requireScope(MODERATE) }, async ({ params, body, caller, trace }) => {
  const [, report] = await Promise.all([caller.user(), openReportOf(params.report_id)]);
  if (body.action === 'remove' && report.targetType === 'user') {
    throw new ValidationError([{ path: 'action', message: 'remove applies to posts and comments; suspend an account' }]);
  }
  const at = new Date().toISOString();
  const done = resolution(report, body.action, body.note, caller.userId, at);
  const record = logItem(trace, {
    type: 'REPORT_RESOLVED',
    description: `Moderator ${caller.userId} resolved report ${report.id} (${report.targetType} ${report.targetId}): ${body.action}.`,
    actorId: caller.userId,
    payload: { params, body },
    diff: { before: { status: 'open' }, after: { status: 'resolved', action: body.action }, changes: ['status', 'action'] },
  });
  const target = body.action === 'dismiss' ? undefined : await targetRecord(report.targetType, report.targetId);
  if (body.action === 'suspend') {
    // The target's owner: a user target is its own, read already; a post or comment deleted
    // since it was reported leaves its owner on the report. A report from before reports kept
    // it still finds a comment's author while the comment's item waits for its drain (a comment
    // under a deleted post is gone to every read, but its item names its author).
    const ownerId = target ? ownerOf(target) : ownerIdOf(report) ?? (report.targetType === 'comment' ? (await getComment(report.targetId))?.author : undefined);
    if (!ownerId) throw new OwnerUnknown(report.targetType);
    const owner = target?.type === 'user' ? target.item : await getUser(ownerId);
    if (owner?.id === caller.userId) throw new SelfAction('You cannot suspend yourself.');
    // Not suspended again, nor a deleted account: the report is resolved alone.
    // Suspended by a racing resolution meanwhile (suspendAccount answers false): resolved alone too.
    if (owner && !owner.suspendedAt && !owner.deletedAt && await suspendAccount(owner, caller.userId, trace, { params, body }, [...done, record])) {
      return { body: { message: 'Report resolved', report: toReport(resolved(report, body.action, body.note, caller.userId, at)) } };
    }
  }
  // Exactly the author's own deletion (contract section 8), the moderator as actor, in one
  // transaction with the report's resolution: a racing resolution of the same report (a 409)
  // deletes nothing, and a deletion never stands under a report that says otherwise.
  if (target?.type === 'post' && body.action === 'remove') {
    await deletePost(target.item, trace, { params, body }, caller.userId, [...done, record]);
  } else if (target?.type === 'comment' && body.action === 'remove') {
    await deleteComment(target.item, { trace, payload: { params, body }, actorId: caller.userId }, [...done, record]);
  } else {
    await transact([...done, record]);
  }
  return { body: { message: 'Report resolved', report: toReport(resolved(report, body.action, body.note, caller.userId, at)) } };
});
