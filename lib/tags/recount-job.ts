// The tag recount job's item (lib/tags/recount.ts), apart from its steps: the writes that
// change an account's state (profile edit, suspension, deletion) carry only this.
import { TABLE } from '../db/client';
import type { TxItem } from '../db/transact';
import type { JobItem } from '../events/jobs';
import * as keys from '../keys';

export const TAG_RECOUNT_KIND = 'tag-recount';

/** The job's item, cursor at the start: a Put that overwrites a running one (the account's state changed again). */
export function tagRecountJob(userId: string, createdAt: string): TxItem {
  const item: JobItem = {
    ...keys.job(TAG_RECOUNT_KIND, userId), type: 'JOB', kind: TAG_RECOUNT_KIND, id: userId, params: { userId }, cursor: '', steps: 0, createdAt,
  };
  return { op: { Put: { TableName: TABLE, Item: item } } };
}

