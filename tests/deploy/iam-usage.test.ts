// The DynamoDB actions each function really calls, recorded while its route serves a valid
// request and a refused one (tests/support/routes.ts fixtures), are all declared for it in
// resources/iam.json. A missing action would be an AccessDenied (a 500) in AWS only. The same
// for the JWT key set (ssm:GetParameter and kms:Decrypt on its parameter): the functions that
// read it are exactly those resources/per-function-iam.js grants it to.
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { apiEvent, call, lambdaContext } from '../support/invoke';
import { makeUser } from '../support/factories';
import { makePost } from '../support/posts';
import { comment, created, reply } from '../support/comment-api';
import { handler as worker } from '../../functions/cleanup/worker';
import { handler as sweeper } from '../../functions/cleanup/sweeper';
import { markRestarted, stalledJobs } from '../../lib/cleanup/sweeper';
import { handler as deletePost } from '../../functions/posts/delete';
import { handler as likePost } from '../../functions/posts/like';
import { rows, type FixtureContext } from '../support/routes';
import { ROOT, functionDefinitions } from '../../scripts/lib/manifests.mjs';
import { db, dynamo, TABLE } from '../../lib/db/client';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { handler as followUser } from '../../functions/users/follow';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { handler as streamConsumer } from '../../functions/events/stream';
import { getItem } from '../support/db';
import * as keys from '../../lib/keys';
import { handler as processMedia } from '../../functions/media/process';
import { makeImage, readyMedia, upload } from '../support/media';
import { handler as createPostHandler } from '../../functions/posts/create';
import { handler as notFound } from '../../functions/docs/not-found';
import { handler as docsPage } from '../../functions/docs/page';
import { jwtKeys } from '../../lib/auth/keys';
import { signToken } from '../../lib/auth/tokens';
import { MODERATE } from '../../lib/reports/reports';
import { handler as reportH } from '../../functions/reports/create';
import { handler as resolveH } from '../../functions/moderation/resolve';

// Who reads the key set (a read of the module's store, cached or not: in AWS the first is a GetParameter).
const keyReads = jest.spyOn(jwtKeys, 'get');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const keyReaders: string[] = require(join(ROOT, 'resources/per-function-iam.js')).jwtKeyReaders(ROOT, functionDefinitions());

const declared = JSON.parse(readFileSync(join(ROOT, 'resources/iam.json'), 'utf8')).functions as Record<string, string[]>;

// IAM actions of a command: a transaction needs the action of each of its operations.
const TX_ACTIONS: Record<string, string> = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem', Get: 'GetItem' };
let recording: Set<string> | undefined;
dynamo.middlewareStack.add((next, context) => async (args) => {
  if (recording) {
    const command = String(context.commandName).replace(/Command$/, '');
    if (command === 'TransactWriteItems' || command === 'TransactGetItems') {
      for (const item of (args.input as { TransactItems: Record<string, unknown>[] }).TransactItems) {
        for (const op of Object.keys(item)) recording.add(`dynamodb:${TX_ACTIONS[op]}`);
      }
    } else recording.add(`dynamodb:${command}`);
  }
  return next(args);
}, { step: 'initialize', name: 'recordIamActions' });

// Declared actions that the valid request of tests/support/routes.ts does not reach, and why.
const BOOKMARKS = 'dynamodb:BatchGetItem'; // the own user's bookmarks are checked against live posts
const RELEASE_KEY = 'dynamodb:DeleteItem';
const OTHER_PATHS: Record<string, string[]> = {
  authLogin: [BOOKMARKS, 'dynamodb:UpdateItem'], // a failed login appends its time to the guard (and may lock)
  authLoginTwoFactor: [BOOKMARKS], // the own user object's bookmarked posts, as a login's
  authRefresh: ['dynamodb:DeleteItem'], // a used refresh token coming back ends its session
  usersMe: [BOOKMARKS],
  usersEdit: [BOOKMARKS],
  postsDelete: ['dynamodb:BatchGetItem'], // someone else's post: the relation to its author is read before the 403
  // A request with an Idempotency-Key that fails releases its in-flight marker (lib/http/idempotency.ts);
  // a post from uploaded media reads them (tests/integration/media-use.test.ts).
  postsCreate: ['dynamodb:BatchGetItem', RELEASE_KEY],
  commentsCreate: [RELEASE_KEY],
  reportsCreate: ['dynamodb:UpdateItem'], // a further reporter of an open report adds one to its reporters
  pushSubscribe: ['dynamodb:DeleteItem'], // the same endpoint again (or one past PUSH_MAX) deletes the earlier subscription
  // A suspension deletes the owner's ended sessions (a Query of them, BatchWrite deletes); a
  // comment report's remove or suspend reads what the comment stands under (below).
  moderationResolve: ['dynamodb:Query', 'dynamodb:BatchWriteItem', 'dynamodb:BatchGetItem'],
  commentsReply: [RELEASE_KEY],
  mediaUploads: [RELEASE_KEY],
};

describe.each(rows())('%s', (_key, route) => {
  let ctx: FixtureContext;
  beforeAll(async () => { ctx = { me: await makeUser(), other: await makeUser() }; });

  it('calls only the DynamoDB actions declared for its function, and reads the JWT key set it is granted', async () => {
    const used = new Set<string>();
    const valid = await route.valid(ctx);
    keyReads.mockClear();
    recording = used;
    try {
      const ok = await call(route.handler, route.key, { token: ctx.me.token, ...valid });
      expect(ok.status).toBeLessThan(300);
      // Refused with a valid token: the WARN trace record.
      const refused = await call(route.handler, route.key, { token: ctx.me.token, ...valid, query: { zz: '1' } });
      expect(refused.status).toBe(400);
    } finally {
      recording = undefined;
    }
    expect(used.size).toBeGreaterThan(0);
    const missing = [...used].filter((a) => !(declared[route.name] ?? []).includes(a));
    expect({ function: route.name, missing }).toEqual({ function: route.name, missing: [] });
    // And nothing more: an action declared but never used is a permission nobody needs.
    const unused = (declared[route.name] ?? []).filter((a) => !used.has(a) && !(OTHER_PATHS[route.name] ?? []).includes(a));
    expect({ function: route.name, unused }).toEqual({ function: route.name, unused: [] });
    // Signing or verifying a token (the refused request's trace record names its actor from the token).
    expect({ function: route.name, readsKeys: keyReads.mock.calls.length > 0 }).toEqual({ function: route.name, readsKeys: true });
    expect(keyReaders).toContain(route.name);
  });
});

describe('the JWT key set', () => {
  it('the catch-all 404 reads it (its trace record names the token\'s user); the /docs page never does, and is not granted it', async () => {
    const u = await makeUser();
    keyReads.mockClear();
    expect((await call(notFound, 'GET /nowhere', { token: u.token })).status).toBe(404);
    expect(keyReads).toHaveBeenCalled();
    expect(keyReaders).toContain('docsNotFound');
    keyReads.mockClear();
    expect((await docsPage({ ...apiEvent('GET /docs', { token: u.token }) }))).toMatchObject({ statusCode: 200 });
    expect(keyReads).not.toHaveBeenCalled();
    expect(keyReaders).not.toContain('docsPage');
  });

  it('no background function is granted it (each one\'s run below reads no key)', () => {
    for (const name of ['cleanupWorker', 'cleanupSweeper', 'streamConsumer', 'mediaProcess']) expect(keyReaders).not.toContain(name);
  });
});

describe('cleanupWorker', () => {
  it('calls exactly the DynamoDB actions declared for it, draining a deleted post made from an upload', async () => {
    const [me, other] = [await makeUser(), await makeUser()];
    const made = await call(createPostHandler, 'POST /posts/create', { token: me.token, body: { media: [await readyMedia(me.token)] } });
    const post = made.body.post as { _id: string };
    const c = created(await comment(other, post._id, 'goes with the post'));
    created(await reply(me, c._id, { text: 'so does this' }));
    expect((await call(likePost, 'POST /posts/like/{post_id}', { params: { post_id: post._id }, token: other.token })).status).toBe(200);
    expect((await call(deletePost, 'DELETE /posts/{post_id}', { params: { post_id: post._id }, token: me.token })).status).toBe(200);
    const used = new Set<string>();
    keyReads.mockClear();
    recording = used;
    try {
      expect(await worker({ kind: 'post', id: post._id }, { ...lambdaContext(), getRemainingTimeInMillis: () => 300_000 })).toMatchObject({ done: true });
    } finally {
      recording = undefined;
    }
    expect([...used].sort()).toEqual([...declared.cleanupWorker!].sort());
    expect(keyReads).not.toHaveBeenCalled();
  });
});

describe('cleanupSweeper', () => {
  it('calls exactly the DynamoDB actions declared for it', async () => {
    const me = await makeUser();
    const post = await makePost(me);
    expect((await call(deletePost, 'DELETE /posts/{post_id}', { params: { post_id: post._id }, token: me.token })).status).toBe(200);
    const used = new Set<string>();
    keyReads.mockClear();
    recording = used;
    try {
      // A sweep scheduled before any job was written finds none to restart: one Query. (As of
      // now it could find the jobs of other test files, stalled once a loaded run outlasts
      // 15 minutes, and the test stage cannot start a worker for them.)
      expect(await sweeper({ time: '2000-01-01T00:00:00Z' })).toEqual({ stalled: 0, restarted: 0 });
      // What it does after a worker was started (the test stage cannot start one): mark the restart.
      const job = (await stalledJobs(new Date(Date.now() + 60_000), 1000)).find((j) => j.id === post._id);
      await markRestarted(job!);
    } finally {
      recording = undefined;
    }
    expect([...used].sort()).toEqual([...declared.cleanupSweeper!].sort());
    expect(keyReads).not.toHaveBeenCalled();
  });
});

describe('streamConsumer', () => {
  // A stream record of the shape Lambda delivers, from the items as they were and are.
  let seq = 0;
  const record = (eventName: 'INSERT' | 'MODIFY' | 'REMOVE', item: Record<string, unknown>, old?: Record<string, unknown>): DynamoDBRecord => ({
    eventName,
    dynamodb: {
      Keys: marshall({ PK: item.PK, SK: item.SK }) as never,
      ...(eventName !== 'REMOVE' ? { NewImage: marshall(item, { removeUndefinedValues: true }) as never } : {}),
      ...(old ?? (eventName === 'REMOVE' ? item : undefined) ? { OldImage: marshall(old ?? item, { removeUndefinedValues: true }) as never } : {}),
      SequenceNumber: String(++seq).padStart(21, '0'),
    },
  });

  it('calls only the DynamoDB actions declared for it, reacting to follows, posts, their removal and a read-time author', async () => {
    const [me, author] = [await makeUser(), await makeUser()];
    const post = await makePost(author);
    const postItem = (await getItem(keys.post(post._id)))!;
    // A real follow (the fan-outs read it), and the author already a read-time author (the
    // follow's reaction then writes a pull source instead of copying posts).
    expect((await call(followUser, 'POST /users/follow/{identifier}', { params: { identifier: author.id }, token: me.token })).status).toBe(200);
    const edge = (await getItem(keys.follow(me.id, author.id)))!;
    const userItem = (await getItem(keys.user(author.id)))!;
    await db.send(new UpdateCommand({ TableName: TABLE, Key: keys.user(author.id), UpdateExpression: 'SET pullMode = :t', ExpressionAttributeValues: { ':t': true } }));
    const used = new Set<string>();
    keyReads.mockClear();
    recording = used;
    try {
      const answer = await streamConsumer({ Records: [
        record('INSERT', edge),
        record('INSERT', postItem),
        record('MODIFY', { ...userItem, pullMode: true }, userItem),
        record('REMOVE', edge),
        record('REMOVE', postItem),
      ] });
      expect(answer).toEqual({ batchItemFailures: [] });
    } finally {
      recording = undefined;
    }
    expect([...used].sort()).toEqual([...declared.streamConsumer!].sort());
    expect(keyReads).not.toHaveBeenCalled();
  });
});

describe('mediaProcess', () => {
  it('calls exactly the DynamoDB actions declared for it, processing an upload and a repeat of its event', async () => {
    const me = await makeUser();
    const { event } = await upload(me.token, await makeImage('jpeg', 32, 24), 'image/jpeg');
    const used = new Set<string>();
    keyReads.mockClear();
    recording = used;
    try {
      expect(await processMedia(event)).toEqual({ outcomes: ['ready'] });
      expect(await processMedia(event)).toEqual({ outcomes: ['ignored'] });
    } finally {
      recording = undefined;
    }
    expect([...used].sort()).toEqual([...declared.mediaProcess!].sort());
    expect(keyReads).not.toHaveBeenCalled();
  });
});

describe('moderationResolve beyond its fixture', () => {
  it('remove and suspend of a comment report call only the actions declared for it', async () => {
    const [author, commenter, reporter, mod] = [await makeUser(), await makeUser(), await makeUser(), await makeUser()];
    const token = await signToken({ userId: mod.id, sessionId: mod.sessionId, epoch: 0 }, [MODERATE]);
    const post = await makePost(author);
    const used = new Set<string>();
    for (const action of ['remove', 'suspend']) {
      const c = created(await comment(commenter, post._id, `reported for ${action}`));
      const filed = await call(reportH, 'POST /reports', { token: reporter.token, body: { targetType: 'comment', targetId: c._id, reason: 'spam' } });
      expect(filed.status).toBe(201);
      recording = used;
      try {
        const res = await call(resolveH, 'POST /moderation/reports/{report_id}/resolve', { token, params: { report_id: filed.body.report._id }, body: { action } });
        expect({ action, status: res.status }).toEqual({ action, status: 200 });
      } finally {
        recording = undefined;
      }
    }
    expect(used).toContain('dynamodb:BatchGetItem');
    expect([...used].filter((a) => !declared.moderationResolve!.includes(a))).toEqual([]);
  });
});
