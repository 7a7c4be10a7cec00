// The accounts hidden from everyone, as each instance holds them (lib/graph/hidden.ts goneIds):
// the GONE partition is read whole once, then only its version while the version stays; every
// transaction that puts or removes a GONE item moves the version (lib/users/gone.ts
// goneChanged), so the next read of any instance is exact again. A table of its own, with its
// change stream (the end of a deletion is the stream's): the GONE partition is table-wide state.
import '../support/own-stream-table';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { call } from '../support/invoke';
import { users } from '../support/posts';
import { getItem, requestsOf } from '../support/db';
import { eventually, startTestStream, type TestStream } from '../support/stream';
import { follow, followers } from '../support/graph';
import type { TestUser } from '../support/factories';
import { db, TABLE } from '../../lib/db/client';
import * as keys from '../../lib/keys';
import { GONE_COPY_MAX_AGE_MS, goneIds } from '../../lib/graph/hidden';
import { suspendAccount, unsuspendAccount } from '../../lib/account/suspend';
import { getUser } from '../../lib/users/repo';
import { handler as deleteMe } from '../../functions/users/delete';

const trace = (stepId: string) => ({ traceId: `gone-copy-${stepId}`, scenarioId: 'test', stepId, simTimestamp: Date.now() });
const suspend = async (u: TestUser, moderator: TestUser) => suspendAccount((await getUser(u.id))!, moderator.id, trace(`suspend-${u.id}`), {});
const unsuspend = async (u: TestUser, moderator: TestUser) => unsuspendAccount((await getUser(u.id))!, moderator.id, trace(`unsuspend-${u.id}`), {});
const version = async () => Number((await getItem(keys.goneVersion()))?.v ?? 0);

const wholeReads = (inputs: Record<string, unknown>[]) =>
  inputs.filter((i) => (i.ExpressionAttributeValues as Record<string, unknown> | undefined)?.[':pk'] === keys.goneAll()).length;
const versionReads = (inputs: Record<string, unknown>[]) =>
  inputs.filter((i) => (i.Key as { SK?: string } | undefined)?.SK === keys.GONE_VERSION_SK).length;

let stream: TestStream;
beforeAll(() => { stream = startTestStream(); });
afterAll(() => stream.poller.stop());
afterEach(() => expect(stream.deadLetters).toEqual([]));

let moderator: TestUser;
let viewer: TestUser;
beforeAll(async () => {
  [moderator, viewer] = await users(2);
});

it('reads the partition whole once, then only its version while nothing changes', async () => {
  const [u] = await users(1);
  await suspend(u, moderator);
  // The stream's reactions to the registrations and the suspension (verification mail, the
  // tag recount) read and write the table too: done before the calls below are counted.
  await stream.poller.idle();
  const first = await requestsOf(() => goneIds());
  expect(first.result).toContain(u.id);
  // A suspension moved the version, so the copy (if any) was out of date: one whole read.
  expect(wholeReads(first.inputs)).toBe(1);

  const again = await requestsOf(() => goneIds());
  expect(again.result).toEqual(first.result);
  expect(again.inputs).toHaveLength(1);
  expect(versionReads(again.inputs)).toBe(1);
  expect(wholeReads(again.inputs)).toBe(0);
  // The version item is the partition's, not an account.
  expect(again.result).not.toContain(keys.GONE_VERSION_SK);
  await unsuspend(u, moderator);
});

it('a suspension and an unsuspension each move the version, and the next read is exact', async () => {
  const [u] = await users(1);
  await goneIds();
  const before = await version();

  await suspend(u, moderator);
  expect(await version()).toBe(before + 1);
  const hidden = await requestsOf(() => goneIds());
  expect(hidden.result).toContain(u.id);
  expect(versionReads(hidden.inputs)).toBe(1);
  expect(wholeReads(hidden.inputs)).toBe(1);

  await unsuspend(u, moderator);
  expect(await version()).toBe(before + 2);
  expect(await goneIds()).not.toContain(u.id);
});

it('an account\'s deletion moves the version when it starts and when its cleanup ends', async () => {
  const [u] = await users(1);
  await goneIds();
  const before = await version();
  expect((await call(deleteMe, 'DELETE /users/me', { token: u.token, body: { password: u.password } })).status).toBe(200);
  expect(await version()).toBe(before + 1);
  expect(await goneIds()).toContain(u.id);

  // The cleanup's last job (the stream's) deletes the GONE item.
  expect(await eventually(() => getItem(keys.gone(u.id)), (g) => g === undefined, 30_000)).toBeUndefined();
  expect(await version()).toBe(before + 2);
  expect(await goneIds()).not.toContain(u.id);
});

it('through a handler: a suspended follower leaves the list at once, and comes back with the unsuspension', async () => {
  const [target, follower] = await users(2);
  await follow(follower, target);
  const ids = async () => {
    const res = await followers(viewer, target);
    expect(res.status).toBe(200);
    return (res.body.followers as { _id: string }[]).map((x) => x._id);
  };
  expect(await ids()).toContain(follower.id);
  await suspend(follower, moderator);
  expect(await ids()).not.toContain(follower.id);
  await unsuspend(follower, moderator);
  expect(await ids()).toContain(follower.id);
});

it('a copy GONE_COPY_MAX_AGE_MS old is read whole again, even when the version did not move', async () => {
  const [u] = await users(1);
  await goneIds();
  // A GONE item the version does not know of: what a copy read during a racing change can miss.
  await db.send(new PutCommand({ TableName: TABLE, Item: { ...keys.gone(u.id), type: 'GONE', userId: u.id, reason: 'suspended', since: new Date().toISOString() } }));
  expect(await goneIds()).not.toContain(u.id);

  const now = Date.now();
  const clock = jest.spyOn(Date, 'now').mockReturnValue(now + GONE_COPY_MAX_AGE_MS + 1);
  try {
    const late = await requestsOf(() => goneIds());
    expect(late.result).toContain(u.id);
    expect(versionReads(late.inputs)).toBe(0);
    expect(wholeReads(late.inputs)).toBe(1);
  } finally {
    clock.mockRestore();
  }
  await db.send(new DeleteCommand({ TableName: TABLE, Key: keys.gone(u.id) }));
});
