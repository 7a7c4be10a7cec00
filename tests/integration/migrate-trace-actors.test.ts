// The one-off upgrade of trace records written before their actor led the sort key
// (scripts/lib/trace-actors.mjs, `npm run migrate`): until it runs their owner's read does not
// find them (a logs:read token does); after it the owner reads them in order, and a second run
// moves nothing.
import '../support/own-table';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, dynamo, TABLE } from '../../lib/db/client';
import * as keys from '../../lib/keys';
import { call } from '../support/invoke';
import { makeUser, uniq } from '../support/factories';
import { queryAll } from '../support/db';
import { signToken } from '../../lib/auth/tokens';
import { handler as edit } from '../../functions/users/edit';
import { handler as traceLogs } from '../../functions/logs/trace';
import { actorSortKey, migrateTraceActors } from '../../scripts/lib/trace-actors.mjs';

const read = (token: string, traceId: string) => call(traceLogs, 'GET /logs/trace/{traceId}', { token, params: { traceId } });

it('builds the sort key the service builds', () => {
  expect(actorSortKey({ actorId: 'U1', _id: '01B' })).toBe(keys.log('t', 'U1', '01B').SK);
});

it('moves every legacy trace record under its actor, once; its owner then reads it', async () => {
  const [a, b] = [await makeUser(), await makeUser()];
  const t = uniq('legacy');
  const h = (sim: number) => ({ 'X-Trace-Id': t, 'X-Sim-Timestamp': String(sim) });
  await call(edit, 'POST /users/profile/edit', { token: a.token, body: { bio: 'a at 20' }, headers: h(20) });
  await call(edit, 'POST /users/profile/edit', { token: b.token, body: { bio: 'b at 10' }, headers: h(10) });
  await call(edit, 'POST /users/profile/edit', { token: a.token, body: { bio: 'a at 10' }, headers: h(10) });
  // As an older version wrote them: the sort key without the actor, which an attribute named.
  const written = await queryAll(keys.trace(t));
  expect(written).toHaveLength(3);
  for (const item of written) {
    const { SK } = item as { SK: string };
    await db.send(new PutCommand({ TableName: TABLE, Item: { ...item, actorId: (item.actor as { id: string }).id, SK: `LOG#${keys.sortableNumber(Number(item.simTimestamp))}#${String(item._id)}` } }));
    await db.send(new DeleteCommand({ TableName: TABLE, Key: { PK: item.PK, SK } }));
  }
  expect((await read(a.token, t)).status).toBe(404);
  const admin = await signToken({ userId: a.id, sessionId: a.sessionId, epoch: 0 }, ['logs:read']);
  const bios = (res: Awaited<ReturnType<typeof read>>) => res.body.data.logs.map((l: { payload: { body: { bio: string } } }) => l.payload.body.bio);
  expect(bios(await read(admin, t))).toEqual(['b at 10', 'a at 10', 'a at 20']);

  // The table's other records (the users' registrations) were written under their actor already.
  const first = await migrateTraceActors({ client: dynamo, table: TABLE, segments: 2 });
  expect(first).toEqual({ records: expect.any(Number), moved: 3, gone: 0 });
  expect(bios(await read(a.token, t))).toEqual(['a at 10', 'a at 20']);
  expect(bios(await read(b.token, t))).toEqual(['b at 10']);
  expect(bios(await read(admin, t))).toEqual(['b at 10', 'a at 10', 'a at 20']);
  expect((await queryAll(keys.trace(t))).map((i) => i.SK).sort()).toEqual(written.map((i) => i.SK).sort());
  expect(await queryAll(keys.trace(t))).toEqual(expect.arrayContaining(written));

  expect(await migrateTraceActors({ client: dynamo, table: TABLE, segments: 3 })).toEqual({ records: first.records, moved: 0, gone: 0 });
});
