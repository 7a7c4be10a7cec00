// Reports and their queue (contract section 15). One open report per target, however many
// users report it: a pointer item per open target (keys.openReport) names the report, each
// reporter is a small marker item (keys.reporter: a repeat is found by key, and the report item
// never grows), and `reporters` counts them. The queue of a status is a Query of GSI1
// (REPORTS#<status>), oldest first. Resolving moves the report to the resolved queue and
// deletes the pointer, so a later report of the target opens a new one.
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import { ConditionFailed, transact, type TxItem } from '../db/transact';
import * as keys from '../keys';
import { INDEX } from '../keys';
import { newId } from '../ids';
import { logItem, recordNoChange } from '../audit/records';
import { diffState } from '../audit/diff';
import type { TraceContext } from '../audit/context';
import { ApiError, NotFound } from '../errors';
import { decodeCursor, encodeCursor } from '../graph/cursor';

export const TARGET_TYPES = ['post', 'comment', 'user'] as const;
export const REASONS = ['spam', 'nudity', 'harassment', 'violence', 'hate', 'self_harm', 'other'] as const;
export const ACTIONS = ['dismiss', 'remove', 'suspend'] as const;
export const STATUSES = ['open', 'resolved'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];
export type Reason = (typeof REASONS)[number];
export type Action = (typeof ACTIONS)[number];
export type Status = (typeof STATUSES)[number];

export interface ReportItem {
  PK: string;
  SK: string;
  type: 'REPORT';
  id: string;
  targetType: TargetType;
  targetId: string;
  /**
   * Who owns the target (a post's or comment's author, a user itself), kept so that a suspend
   * still reaches its owner once the post or comment is gone. Absent on reports filed before.
   */
  ownerId?: string;
  /** The first reporter's reason (each reporter's own is on their marker). */
  reason: Reason;
  note?: string;
  status: Status;
  reporters: number;
  createdAt: string;
  action?: Action;
  resolutionNote?: string;
  resolvedBy?: string;
  resolvedAt?: string;
  GSI1PK: string;
  GSI1SK: string;
}

export interface Report {
  _id: string;
  targetType: TargetType;
  targetId: string;
  reason: Reason;
  status: Status;
  createdAt: string;
  action?: Action;
  note?: string;
  resolvedBy?: string;
  resolvedAt?: string;
}

export function toReport(r: ReportItem): Report {
  return {
    _id: r.id, targetType: r.targetType, targetId: r.targetId, reason: r.reason, status: r.status, createdAt: r.createdAt,
    ...(r.status === 'resolved' ? { action: r.action, ...(r.resolutionNote ? { note: r.resolutionNote } : {}), resolvedBy: r.resolvedBy, resolvedAt: r.resolvedAt } : {}),
  };
}

/** The scope the moderation routes need (their RouteSpec's `scope`: 403 without it). */
export const MODERATE = 'moderate';

/** A resolved report is resolved for good. */
export class ReportResolved extends ApiError {
  constructor() { super(409, 'REPORT_RESOLVED', 'This report is already resolved.'); }
}

/** A suspend whose target is gone and whose report does not say who owned it (filed before reports kept it). */
export class OwnerUnknown extends ApiError {
  constructor(type: TargetType) { super(409, 'OWNER_UNKNOWN', `The reported ${type} no longer exists and this report does not say whose it was: dismiss it, or suspend the account from a report of the user.`); }
}

/** Whom a suspend reaches: the owner of the target, from the report once the target is gone. */
export const ownerIdOf = (r: ReportItem): string | undefined => r.ownerId ?? (r.targetType === 'user' ? r.targetId : undefined);

const consistentGet = async <T>(key: { PK: string; SK: string }) =>
  (await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }))).Item as T | undefined;

export const getReport = (reportId: string) => consistentGet<ReportItem>(keys.report(reportId));

/** The report as the reporter sees it: the caller's own reason, never another reporter's reason or note. */
export interface Filed { report: ReportItem; created: boolean }

/** The report with `reason` and `note` of the reporter given (the item holds the first reporter's). */
const asReporterSees = (report: ReportItem, reason: Reason, note: string | undefined): ReportItem => {
  const { note: _first, ...rest } = report;
  return { ...rest, reason, ...(note ? { note } : {}) };
};

const MAX_ATTEMPTS = 10;

/**
 * Files the caller's report of a target the caller may see (checked by the handler): the first
 * opens the report (created), a further reporter adds one to `reporters`, the same reporter
 * again changes nothing. Races between reporters and with a resolution are retried.
 */
export async function fileReport(reporterId: string, target: { type: TargetType; id: string; ownerId: string }, reason: Reason, note: string | undefined, trace: TraceContext, payload: Record<string, unknown>): Promise<Filed> {
  const marker = (reportId: string, createdAt: string): TxItem => ({
    op: {
      Put: {
        TableName: TABLE,
        Item: { ...keys.reporter(reportId, reporterId), type: 'REPORTER', reportId, userId: reporterId, reason, ...(note ? { note } : {}), createdAt, GSI2PK: keys.reportsBy(reporterId), GSI2SK: reportId },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
  });
  for (let attempt = 1; ; attempt++) {
    if (attempt > MAX_ATTEMPTS) throw new Error('a report kept racing other reports of its target');
    const open = await consistentGet<{ reportId: string }>(keys.openReport(target.type, target.id));
    const now = new Date().toISOString();
    try {
      if (!open) {
        const id = newId();
        const report: ReportItem = {
          ...keys.report(id), type: 'REPORT', id, targetType: target.type, targetId: target.id, ownerId: target.ownerId, reason, ...(note ? { note } : {}),
          status: 'open', reporters: 1, createdAt: now, GSI1PK: keys.reportQueue('open'), GSI1SK: `${now}#${id}`,
        };
        await transact([
          { op: { Put: { TableName: TABLE, Item: { ...keys.openReport(target.type, target.id), type: 'REPORT_OPEN', reportId: id }, ConditionExpression: 'attribute_not_exists(PK)' } } },
          { op: { Put: { TableName: TABLE, Item: report } } },
          marker(id, now),
          logItem(trace, {
            type: 'REPORT_FILED', description: `User ${reporterId} reported ${target.type} ${target.id} (${reason}).`, actorId: reporterId, payload,
            diff: diffState(null, toReport(report) as unknown as Record<string, unknown>),
          }),
        ]);
        return { report, created: true };
      }
      // The report and this reporter's marker, read together.
      const [current, marked] = await Promise.all([getReport(open.reportId), consistentGet<{ reason?: Reason; note?: string }>(keys.reporter(open.reportId, reporterId))]);
      if (!current || current.status !== 'open') continue; // being resolved: the pointer goes next
      if (marked) {
        await recordNoChange(trace, { type: 'REPORT_FILED', actorId: reporterId, payload }, `User ${reporterId} already reported ${target.type} ${target.id}; nothing changed.`);
        // Its reason as first given: the marker's (what it sends again changes nothing).
        return { report: asReporterSees(current, marked.reason ?? reason, marked.note), created: false };
      }
      await transact([
        marker(current.id, now),
        {
          op: {
            Update: {
              TableName: TABLE, Key: keys.report(current.id), UpdateExpression: 'ADD reporters :one',
              ConditionExpression: '#s = :open', ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':one': 1, ':open': 'open' },
            },
          },
        },
        logItem(trace, {
          type: 'REPORT_FILED', description: `User ${reporterId} also reported ${target.type} ${target.id} (${reason}).`, actorId: reporterId, payload,
          diff: diffState({ reporters: current.reporters }, { reporters: current.reporters + 1 }),
        }),
      ]);
      return { report: asReporterSees({ ...current, reporters: current.reporters + 1 }, reason, note), created: false };
    } catch (err) {
      if (!(err instanceof ConditionFailed)) throw err;
      // Another reporter or a resolution won the race: read again.
    }
  }
}

/** Items of resolving a report, for the transaction of its action (or alone). */
export function resolution(report: ReportItem, action: Action, note: string | undefined, moderatorId: string, at: string): TxItem[] {
  return [
    {
      op: {
        Update: {
          TableName: TABLE,
          Key: keys.report(report.id),
          UpdateExpression: `SET #s = :resolved, #a = :action, resolvedBy = :by, resolvedAt = :at, GSI1PK = :queue${note ? ', resolutionNote = :note' : ''}`,
          ConditionExpression: '#s = :open',
          ExpressionAttributeNames: { '#s': 'status', '#a': 'action' },
          ExpressionAttributeValues: { ':resolved': 'resolved', ':action': action, ':by': moderatorId, ':at': at, ':queue': keys.reportQueue('resolved'), ':open': 'open', ...(note ? { ':note': note } : {}) },
        },
      },
      onConditionFailed: () => new ReportResolved(),
    },
    { op: { Delete: { TableName: TABLE, Key: keys.openReport(report.targetType, report.targetId) } } },
  ];
}

export const resolved = (report: ReportItem, action: Action, note: string | undefined, moderatorId: string, at: string): ReportItem => ({
  ...report, status: 'resolved', action, ...(note ? { resolutionNote: note } : {}), resolvedBy: moderatorId, resolvedAt: at, GSI1PK: keys.reportQueue('resolved'),
});

/** A page of a queue, oldest first. */
export async function reportPage(status: Status, limit: number, after?: string): Promise<{ items: ReportItem[]; next: string | null }> {
  // The queues' sort key is `<createdAt>#<report id>`, as the user lists' is: the same cursor
  // (lib/graph/cursor.ts), which rebuilds the key from its digits and never reads them as a
  // date (a cursor of milliseconds past year 275760 once made Date throw: a 500).
  const cursor = after ? decodeCursor(after) : undefined;
  const res = await db.send(new QueryCommand({
    TableName: TABLE,
    IndexName: INDEX.GSI1,
    KeyConditionExpression: cursor ? 'GSI1PK = :pk AND GSI1SK > :after' : 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.reportQueue(status), ...(cursor ? { ':after': cursor } : {}) },
    ScanIndexForward: true,
    Limit: limit + 1,
  }));
  const items = (res.Items ?? []) as ReportItem[];
  const page = items.slice(0, limit);
  return { items: page, next: items.length > limit ? encodeCursor(page[page.length - 1]!.GSI1SK) : null };
}

/** A report to resolve: it must exist (404) and be open (409). */
export async function openReportOf(reportId: string): Promise<ReportItem> {
  const report = await getReport(reportId);
  if (!report) throw new NotFound('report');
  if (report.status !== 'open') throw new ReportResolved();
  return report;
}
