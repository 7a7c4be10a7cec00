// The one-off upgrade of a stage deployed before block mirrors (scripts/lib/block-mirrors.mjs,
// `npm run migrate`): block edges written the old way (no mirror) are not seen by the blocked
// user's block lists until it runs; after it they are, a second run writes nothing, and the
// mirrors it writes are the service's own (lib/graph/edges.ts blockMirror).
import '../support/own-table';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { db, dynamo, TABLE } from '../../lib/db/client';
import * as keys from '../../lib/keys';
import { blockMirror } from '../../lib/graph/edges';
import { blockListsOf } from '../../lib/graph/hidden';
import { getItem } from '../support/db';
import { block, unblock, users } from '../support/graph';
import { migrateBlockMirrors, mirrorOf } from '../../scripts/lib/block-mirrors.mjs';

it('writes the mirror the service writes', () => {
  const edge = { blockerId: '01ARZ3NDEKTSV4RRFFQ69G5FAV', blockedId: '01BX5ZZKBKACTAV9WEVGEMMVRZ', createdAt: '2026-11-26T06:00:00.000Z' };
  expect(mirrorOf(edge)).toEqual(blockMirror(edge.blockerId, edge.blockedId, edge.createdAt));
});

it('gives every legacy block edge its mirror, once; the blocked users\' lists then see them', async () => {
  const [a, b, c, d] = await users(4);
  await block(a, b);
  await block(c, b);
  await block(b, d);
  await block(d, a);
  await unblock(d, a);
  // As an older version wrote them: no mirror.
  for (const [blocker, blocked] of [[a, b], [c, b], [b, d]] as const) {
    await db.send(new DeleteCommand({ TableName: TABLE, Key: keys.blockedBy(blocked.id, blocker.id) }));
  }
  expect((await blockListsOf(b.id)).blockedBy).toEqual([]);

  const first = await migrateBlockMirrors({ client: dynamo, table: TABLE, segments: 2 });
  expect(first).toEqual({ edges: 3, written: 3, present: 0, removed: 0 });
  expect((await blockListsOf(b.id)).blockedBy).toEqual([c.id, a.id]);
  expect((await blockListsOf(d.id)).blockedBy).toEqual([b.id]);
  expect(await getItem(keys.blockedBy(b.id, a.id))).toEqual({ ...blockMirror(a.id, b.id, String((await getItem(keys.block(a.id, b.id)))!.createdAt)) });
  // The unblocked pair stays without a mirror.
  expect(await getItem(keys.blockedBy(a.id, d.id))).toBeUndefined();

  expect(await migrateBlockMirrors({ client: dynamo, table: TABLE, segments: 3 })).toEqual({ edges: 3, written: 0, present: 3, removed: 0 });
});
