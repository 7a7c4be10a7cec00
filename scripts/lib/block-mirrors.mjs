// The one-off upgrade of a table written before block mirrors existed (lib/keys.ts blockedBy):
// every block edge gets its mirror in the blocked user's partition, which the block lists of
// every authenticated read now come from (lib/graph/hidden.ts). A stage deployed before that
// change must run it once, right after the deploy (docs/OPERATIONS.md, "Upgrading a stage").
//
// It reads the table's block edges with a parallel Scan filtered on `type = BLOCK` (a one-off
// upgrade, never a request path) and puts each missing mirror under attribute_not_exists, so a
// second run, or a run beside live blocks and unblocks, writes nothing twice. A mirror whose
// edge was unblocked while the run went on is taken away again at the end of the run (the
// unblock deletes the mirror, and the run may have put it back after).
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { scanTypes } from './scan-types.mjs';

/** The mirror of a block edge, as lib/graph/edges.ts blockMirror writes it (a test checks they agree). */
export const mirrorOf = (edge) => ({
  PK: `USER#${edge.blockedId}`,
  SK: `BLOCKEDBY#${edge.blockerId}`,
  type: 'BLOCKED_BY',
  blockerId: edge.blockerId,
  blockedId: edge.blockedId,
  createdAt: edge.createdAt,
});

/**
 * Puts the missing mirrors of every block edge of `table`. `client`: a DynamoDBClient.
 * Answers what it did: `{ edges, written, present, removed }`.
 */
export async function migrateBlockMirrors({ client, table, segments = 4, log = () => {} }) {
  const db = DynamoDBDocumentClient.from(client);
  const counts = { edges: 0, written: 0, present: 0, removed: 0 };
  const putBack = [];
  await scanTypes({ db, table, types: ['BLOCK'], projection: ['PK', 'SK', 'blockerId', 'blockedId', 'createdAt'], segments, onPage: async (edges, segment) => {
    for (const edge of edges) {
      counts.edges++;
      const mirror = mirrorOf(edge);
      try {
        await db.send(new PutCommand({ TableName: table, Item: mirror, ConditionExpression: 'attribute_not_exists(PK)' }));
        counts.written++;
        putBack.push({ edge: { PK: edge.PK, SK: edge.SK }, mirror: { PK: mirror.PK, SK: mirror.SK } });
      } catch (err) {
        if (!(err instanceof ConditionalCheckFailedException)) throw err;
        counts.present++;
      }
    }
    log(`segment ${segment}: ${counts.edges} block edges seen, ${counts.written} mirrors written`);
  } });
  // An edge unblocked between the Scan and the Put: its mirror must not outlive it.
  for (const { edge, mirror } of putBack) {
    const still = await db.send(new GetCommand({ TableName: table, Key: edge, ConsistentRead: true }));
    if (!still.Item) {
      await db.send(new DeleteCommand({ TableName: table, Key: mirror }));
      counts.removed++;
    }
  }
  return counts;
}
