// An account's posts in its tags' postsCount (contract section 19) follow the account: they
// count while it is public and neither suspended nor deleted. Every (tag, post) move, the
// entry's own (lib/tags/counts.ts) and this job's, is one transaction that also checks the
// user item for the state it moves toward (accountCheck: public, not suspended, not deleted;
// its negation for an uncount), so a move decided on a stale read fails and changes nothing,
// and the per-(tag, post) marker keeps each move exact when a record comes again.
//
// The writes that change the state (the profile edit of `isPrivate` either way, suspension,
// unsuspension, deletion) put this job's item (./recount-job.ts, id: the account) in their own
// transaction, overwritten with its cursor at the start, so the job starts over from the
// newest post whenever the state changes again. Each step reads STEP_POSTS of the account's
// posts (GSI1, newest first) and moves each tag of each toward the account's state as it reads
// it then; for the posts of the last 48 hours, the account's trending use of the tag too
// (lib/tags/trends.ts: taken out, or recorded again at the post's hour). After a deletion the
// account's cleanup deletes its posts too (their entries' REMOVE finds nothing left to move);
// once the user item is gone the job ends.
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import type { JobKind } from '../events/jobs';
import * as keys from '../keys';
import { INDEX } from '../keys';
import { accountCheck, moveCount, refreshDirectory } from './counts';
import { dropUse, hourOf, recordUse } from './trends';
import { TAG_RECOUNT_KIND } from './recount-job';

/** Posts younger than this can still count in trending (the ranking's 48 hours). */
const TREND_WINDOW_MS = 48 * 3_600_000;

/** Posts read per step: each tag of each is one small transaction. */
export const STEP_POSTS = 25;

export interface TagRecountParams extends Record<string, unknown> {
  userId: string;
}

export const tagRecountJobKind: JobKind<TagRecountParams> = {
  kind: TAG_RECOUNT_KIND,
  async step({ userId }, cursor) {
    const user = (await db.send(new GetCommand({
      TableName: TABLE, Key: keys.user(userId), ProjectionExpression: 'isPrivate, suspendedAt, deletedAt', ConsistentRead: true,
    }))).Item;
    // Deleted for good: the cleanup's post deletions have uncounted everything.
    if (!user) return undefined;
    const counts = user.isPrivate !== true && !user.suspendedAt && !user.deletedAt;
    const res = await db.send(new QueryCommand({
      TableName: TABLE,
      IndexName: INDEX.GSI1,
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.postsOf(userId) },
      ProjectionExpression: 'PK, SK, GSI1PK, GSI1SK, hashtags, createdAt',
      ScanIndexForward: false,
      Limit: STEP_POSTS,
      ExclusiveStartKey: cursor ? JSON.parse(cursor) : undefined,
    }));
    const touched = new Set<string>();
    for (const post of res.Items ?? []) {
      const postId = String(post.GSI1SK);
      for (const tag of (post.hashtags ?? []) as string[]) {
        // A count also needs the entry: a post that no longer carries the tag is not counted.
        const checks = counts ? [accountCheck(userId), { op: { ConditionCheck: { TableName: TABLE, Key: keys.tagEntry(tag, postId), ConditionExpression: 'attribute_exists(PK)' } } }] : [accountCheck(userId, false)];
        if (await moveCount(tag, postId, counts, checks)) touched.add(tag);
        // Trending: the account's use of the tag, from its posts of the last 48 hours.
        const at = Date.parse(String(post.createdAt));
        if (Date.now() - at < TREND_WINDOW_MS) await (counts ? recordUse(tag, userId, hourOf(at)) : dropUse(tag, userId));
      }
    }
    if (touched.size) {
      await Promise.all([...touched].map((t) => refreshDirectory(t)));
    }
    return res.LastEvaluatedKey ? JSON.stringify(res.LastEvaluatedKey) : undefined;
  },
};
