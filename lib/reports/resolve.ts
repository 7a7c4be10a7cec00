// POST /moderation/reports/{report_id}/resolve (contract section 15): a moderator's resolution
// of an open report, applied with the resolution in one transaction, so that a racing
// resolution of the same report (a 409) applies nothing.
import { transact } from '../db/transact';
import { logItem } from '../audit/records';
import type { TraceContext } from '../audit/context';
import { SelfAction, ValidationError } from '../errors';
import { deletePost } from '../posts/write';
import { deleteComment } from '../comments/delete';
import { getComment } from '../comments/model';
import { suspendAccount } from '../account/suspend';
import { getUser } from '../users/repo';
import { OwnerUnknown, openReportOf, ownerIdOf, resolution, resolved, toReport, type Action } from './reports';
import { ownerOf, targetRecord } from './targets';

export interface Resolving {
  reportId: string;
  action: Action;
  note?: string;
  moderatorId: string;
  trace: TraceContext;
  payload: Record<string, unknown>;
}

/** Resolves the report (404 unknown, 409 already resolved) and answers it as resolved. */
export async function resolveReport(r: Resolving, moderatorRead: Promise<unknown>): Promise<ReturnType<typeof toReport>> {
  const [, report] = await Promise.all([moderatorRead, openReportOf(r.reportId)]);
  if (r.action === 'remove' && report.targetType === 'user') {
    throw new ValidationError([{ path: 'action', message: 'remove applies to posts and comments; suspend an account' }]);
  }
  const at = new Date().toISOString();
  const done = resolution(report, r.action, r.note, r.moderatorId, at);
  const record = logItem(r.trace, {
    type: 'REPORT_RESOLVED',
    description: `Moderator ${r.moderatorId} resolved report ${report.id} (${report.targetType} ${report.targetId}): ${r.action}.`,
    actorId: r.moderatorId,
    payload: r.payload,
    diff: { before: { status: 'open' }, after: { status: 'resolved', action: r.action }, changes: ['status', 'action'] },
  });
  const answer = () => toReport(resolved(report, r.action, r.note, r.moderatorId, at));
  const target = r.action === 'dismiss' ? undefined : await targetRecord(report.targetType, report.targetId);
  if (r.action === 'suspend') {
    // The target's owner: a user target is its own, read already; a post or comment deleted
    // since it was reported leaves its owner on the report. A report from before reports kept
    // it still finds a comment's author while the comment's item waits for its drain (a comment
    // under a deleted post is gone to every read, but its item names its author).
    const ownerId = target ? ownerOf(target) : ownerIdOf(report) ?? (report.targetType === 'comment' ? (await getComment(report.targetId))?.author : undefined);
    if (!ownerId) throw new OwnerUnknown(report.targetType);
    const owner = target?.type === 'user' ? target.item : await getUser(ownerId);
    if (owner?.id === r.moderatorId) throw new SelfAction('You cannot suspend yourself.');
    // Not suspended again, nor a deleted account: the report is resolved alone.
    // Suspended by a racing resolution meanwhile (suspendAccount answers false): resolved alone too.
    if (owner && !owner.suspendedAt && !owner.deletedAt && await suspendAccount(owner, r.moderatorId, r.trace, r.payload, [...done, record])) return answer();
  }
  // Exactly the author's own deletion (contract section 8), the moderator as actor, in one
  // transaction with the report's resolution: a racing resolution of the same report (a 409)
  // deletes nothing, and a deletion never stands under a report that says otherwise.
  if (target?.type === 'post' && r.action === 'remove') {
    await deletePost(target.item, r.trace, r.payload, r.moderatorId, [...done, record]);
  } else if (target?.type === 'comment' && r.action === 'remove') {
    await deleteComment(target.item, { trace: r.trace, payload: r.payload, actorId: r.moderatorId }, [...done, record]);
  } else {
    await transact([...done, record]);
  }
  return answer();
}
