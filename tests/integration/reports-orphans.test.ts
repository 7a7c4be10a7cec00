// A comment under a deleted post or a deleted comment leaves every read at once (contract
// section 8), while its item waits for the post's or comment's cleanup to drain it. To
// reports it is gone too (contract section 15: a missing target is 404; the queue shows a
// gone target as null; remove finds nothing left to delete). On a table of its own (the queue
// is the stage's, oldest first) with no stream: nothing drains the children here, so the
// window stays open for the test.
import '../support/own-table';
import { call } from '../support/invoke';
import { makePost, users } from '../support/posts';
import { comment, commentItem, created, remove, reply } from '../support/comment-api';
import { signToken } from '../../lib/auth/tokens';
import { MODERATE } from '../../lib/reports/reports';
import type { TestUser } from '../support/factories';
import { handler as reportH } from '../../functions/reports/create';
import { handler as queueH } from '../../functions/moderation/reports';
import { handler as resolveH } from '../../functions/moderation/resolve';
import { handler as deletePostH } from '../../functions/posts/delete';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../../lib/db/client';
import * as keys from '../../lib/keys';
import { getItem } from '../support/db';

const report = (u: TestUser, targetId: string) => call(reportH, 'POST /reports', { token: u.token, body: { targetType: 'comment', targetId, reason: 'spam' } });
const moderator = (u: TestUser) => signToken({ userId: u.id, sessionId: u.sessionId, epoch: 0 }, [MODERATE]);

it('a comment whose post was deleted, or a reply whose comment was, cannot be reported (404); an open report of it shows its target null and resolves by remove', async () => {
  const [author, commenter, reporter, mod] = await users(4);
  const post = await makePost(author);
  const top = created(await comment(commenter, post._id, 'first'));
  const answer = created(await reply(commenter, top._id, { text: 'a reply' }));
  const open = await report(reporter, top._id);
  expect(open.status).toBe(201);

  // The reply's comment goes: the reply is gone with it.
  expect((await remove(commenter, top._id)).status).toBe(200);
  expect(await commentItem(answer._id)).toBeDefined();
  const late = await report(reporter, answer._id);
  expect({ status: late.status, code: late.body.code }).toEqual({ status: 404, code: 'NOT_FOUND' });

  // A comment under a deleted post.
  const other = await makePost(author);
  const under = created(await comment(commenter, other._id, 'under a post'));
  const openUnder = await report(reporter, under._id);
  expect(openUnder.status).toBe(201);
  expect((await call(deletePostH, 'DELETE /posts/{post_id}', { token: author.token, params: { post_id: other._id } })).status).toBe(200);
  expect(await commentItem(under._id)).toBeDefined();
  expect((await report(mod, under._id)).status).toBe(404);

  const token = await moderator(mod);
  const queued = await call(queueH, 'GET /moderation/reports', { token, query: { limit: '50' } });
  const target = (id: string) => queued.body.reports.find((r: { _id: string }) => r._id === id)?.target;
  expect(target(openUnder.body.report._id)).toBeNull();
  const done = await call(resolveH, 'POST /moderation/reports/{report_id}/resolve', { token, params: { report_id: openUnder.body.report._id }, body: { action: 'remove' } });
  expect({ status: done.status, action: done.body.report?.action }).toEqual({ status: 200, action: 'remove' });
});

it('suspend of a report from before reports kept their owner reaches the author of a comment whose post was deleted (its item still names it)', async () => {
  const [author, commenter, reporter, mod] = await users(4);
  const post = await makePost(author);
  const c = created(await comment(commenter, post._id, 'reported, then orphaned'));
  const filed = await report(reporter, c._id);
  expect(filed.status).toBe(201);
  // A report as they were written before `ownerId`.
  await db.send(new UpdateCommand({ TableName: TABLE, Key: keys.report(filed.body.report._id), UpdateExpression: 'REMOVE ownerId' }));
  expect((await call(deletePostH, 'DELETE /posts/{post_id}', { token: author.token, params: { post_id: post._id } })).status).toBe(200);
  const done = await call(resolveH, 'POST /moderation/reports/{report_id}/resolve', { token: await moderator(mod), params: { report_id: filed.body.report._id }, body: { action: 'suspend' } });
  expect({ status: done.status, action: done.body.report?.action }).toEqual({ status: 200, action: 'suspend' });
  expect(await getItem(keys.gone(commenter.id))).toMatchObject({ reason: 'suspended' });
});
