// Calls of the comment endpoints and reads of what they stored, for the comment tests.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../../lib/db/client';
import * as keys from '../../lib/keys';
import { INDEX } from '../../lib/keys';
import { call, type CallResult } from './invoke';
import { getItem, queryAll } from './db';
import { handler as createH } from '../../functions/comments/create';
import { handler as replyH } from '../../functions/comments/reply';
import { handler as repliesH } from '../../functions/comments/replies';
import { handler as postH } from '../../functions/comments/post';
import { handler as deleteH } from '../../functions/comments/delete';
import { handler as likeH } from '../../functions/comments/like';
import { handler as unlikeH } from '../../functions/comments/unlike';
import type { TestUser } from './factories';

type Opts = { headers?: Record<string, string>; query?: Record<string, string> };

export const comment = (u: TestUser, postId: string, text: string, o: Opts = {}) =>
  call(createH, 'POST /comments/create/{post_id}', { params: { post_id: postId }, body: { text }, token: u.token, headers: o.headers });
export const reply = (u: TestUser, commentId: string, body: Record<string, unknown>, o: Opts = {}) =>
  call(replyH, 'POST /comments/reply/{comment_id}', { params: { comment_id: commentId }, body, token: u.token, headers: o.headers });
export const replies = (u: TestUser, commentId: string, query: Record<string, string> = {}) =>
  call(repliesH, 'GET /comments/replies/{comment_id}', { params: { comment_id: commentId }, query, token: u.token });
export const comments = (u: TestUser, postId: string, query: Record<string, string> = {}) =>
  call(postH, 'GET /comments/post/{post_id}', { params: { post_id: postId }, query, token: u.token });
export const remove = (u: TestUser, commentId: string) =>
  call(deleteH, 'DELETE /comments/{comment_id}', { params: { comment_id: commentId }, token: u.token });
export const like = (u: TestUser, commentId: string) =>
  call(likeH, 'POST /comments/like/{comment_id}', { params: { comment_id: commentId }, token: u.token });
export const unlike = (u: TestUser, commentId: string) =>
  call(unlikeH, 'POST /comments/unlike/{comment_id}', { params: { comment_id: commentId }, token: u.token });

export function created(res: CallResult, status = 201): { _id: string; createdAt: string } {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status} ${res.text}`);
  return res.body.comment ?? res.body.data;
}

/** Every item of a GSI1 partition, oldest first. */
export async function gsi1(partition: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db.send(new QueryCommand({
      TableName: TABLE, IndexName: INDEX.GSI1, KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': partition }, ExclusiveStartKey: start,
    }));
    items.push(...(res.Items ?? []));
    start = res.LastEvaluatedKey;
  } while (start);
  return items;
}

export const postItem = (postId: string) => getItem(keys.post(postId));
export const commentItem = (commentId: string) => getItem(keys.comment(commentId));

/** Live comments + live replies (of live comments) of a post, counted from the items. */
export async function countThread(postId: string): Promise<{ total: number; repliesOf: Map<string, number> }> {
  const tops = await gsi1(keys.commentsOf(postId));
  const repliesOf = new Map<string, number>();
  let total = tops.length;
  for (const t of tops) {
    const n = (await gsi1(keys.repliesOf(String(t.id)))).length;
    repliesOf.set(String(t.id), n);
    total += n;
  }
  return { total, repliesOf };
}

/** Log records of a trace, for checking what a request wrote. */
export const traceRecords = (traceId: string) => queryAll(keys.trace(traceId));

/** Walks a list from no cursor until hasMore is false. */
export async function walk(fetch: (query: Record<string, string>) => Promise<CallResult>, limit: number, key: 'comments' | 'replies') {
  const seen: { _id: string; createdAt: string }[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 200; pages++) {
    const res = await fetch({ limit: String(limit), ...(cursor ? { cursor } : {}) });
    if (res.status !== 200) throw new Error(`walk: ${res.status} ${res.text}`);
    const items = res.body.data[key] as { _id: string; createdAt: string }[];
    seen.push(...items);
    const { hasMore, nextCursor } = res.body.data.pagination;
    expect(nextCursor).toBe(items.length ? items[items.length - 1]!.createdAt : null);
    if (!hasMore) return seen;
    cursor = nextCursor;
  }
  throw new Error('walk did not end');
}
