// Going public approves every pending request (contract section 18): the profile edit that
// turns `isPrivate` off writes this job's item in its own transaction, and the change stream
// runs it in bounded steps (lib/events/jobs.ts): each step approves up to STEP_REQUESTS of the
// oldest requests, one transaction each, as the owner's approve would (counts, notifications,
// feed backfill), and moves the cursor past them. A retried step redoes its chunk: an approved
// request is gone and is skipped. The job stops early when the account is private again or
// hidden (suspended, deleted).
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import type { JobItem, JobKind } from '../events/jobs';
import * as keys from '../keys';
import { NotFound } from '../errors';
import type { TraceContext } from '../audit/context';
import { approveRequest, oldestRequests } from './requests';
import type { CountedTarget } from './target';

export interface GoPublicParams extends Record<string, unknown> {
  userId: string;
  trace: TraceContext;
}

export const GO_PUBLIC_KIND = 'go-public';
/** Requests approved per step: a step stays well under a second of transactions. */
export const STEP_REQUESTS = 25;

/** The job's item, cursor at the start, for the profile edit's transaction. */
export function goPublicJob(params: GoPublicParams, createdAt: string): JobItem {
  return { ...keys.job(GO_PUBLIC_KIND, params.userId), type: 'JOB', kind: GO_PUBLIC_KIND, id: params.userId, params, cursor: '', steps: 0, createdAt };
}

export const goPublicJobKind: JobKind<GoPublicParams> = {
  kind: GO_PUBLIC_KIND,
  async step(params, cursor) {
    const res = await db.send(new GetCommand({
      TableName: TABLE, Key: keys.user(params.userId), ProjectionExpression: 'isPrivate, followersCount, deletedAt, suspendedAt', ConsistentRead: true,
    }));
    const owner = res.Item;
    if (!owner || owner.isPrivate === true || owner.deletedAt || owner.suspendedAt) return undefined;
    const page = await oldestRequests(params.userId, cursor || undefined, STEP_REQUESTS);
    const target: CountedTarget = { id: params.userId, followersCount: Number(owner.followersCount ?? 0) };
    for (const sk of page.sortKeys) {
      const requesterId = sk.slice(sk.lastIndexOf('#') + 1);
      try {
        target.followersCount = await approveRequest(target, requesterId, params.trace, { userId: params.userId, requesterId, reason: 'the account went public' });
      } catch (err) {
        // Already approved by a step delivered twice, withdrawn, or its requester gone.
        if (!(err instanceof NotFound)) throw err;
      }
    }
    if (page.end || !page.sortKeys.length) return undefined;
    return page.sortKeys[page.sortKeys.length - 1];
  },
};
