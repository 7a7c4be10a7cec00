// The one-off upgrade of trace records written before their sort key began with their actor
// (lib/keys.ts log): `LOG#<sortable simTimestamp>#<id>` becomes `ACTOR#<actorId>#<id>` in the
// same TRACE#<traceId> partition, so that their owner's read, which now reads its own
// range alone, finds them. Until it runs, a logs:read token still reads them (it reads the whole
// partition) and their owner does not. A stage deployed before that change runs it once, right
// after the deploy (docs/OPERATIONS.md, "Upgrading a stage"); records expire after
// LOG_RETENTION_DAYS anyway, so a stage that waits that long needs it no more.
//
// It reads the trace records with a parallel Scan filtered on `type = LOG` (a one-off upgrade,
// never a request path) and moves each legacy one in a transaction: the new item put under
// attribute_not_exists, the old one deleted under attribute_exists. A second run, or two runs at
// once, move nothing twice.
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { scanTypes } from './scan-types.mjs';

const LEGACY = 'LOG#';

/** Every attribute a trace record's item has (lib/audit/records.ts toItem). */
const ATTRIBUTES = ['PK', 'SK', '_id', 'scenarioId', 'stepId', 'traceId', 'simTimestamp', 'level', 'action', 'actor', 'payload', 'stateDiff', 'createdAt', 'actorId', 'expiresAt'];

/** The sort key of a legacy record's item, as lib/keys.ts log now builds it (a test checks they agree). */
export const actorSortKey = (item) => `ACTOR#${item.actorId}#${item._id}`;

/**
 * Moves every legacy trace record of `table` under its actor. `client`: a DynamoDBClient.
 * Answers what it did: `{ records, moved, gone }` (records: the trace records seen; gone: legacy
 * ones another run moved, or TTL deleted, between the Scan and the move).
 */
export async function migrateTraceActors({ client, table, segments = 4, log = () => {} }) {
  const db = DynamoDBDocumentClient.from(client);
  const counts = { records: 0, moved: 0, gone: 0 };
  await scanTypes({ db, table, types: ['LOG'], projection: ATTRIBUTES, segments, onPage: async (items, segment) => {
    for (const item of items) {
      counts.records++;
      if (!String(item.SK).startsWith(LEGACY)) continue;
      // As the service writes a record now: the actor in the key, no `actorId` attribute.
      const { actorId: _actor, ...moved } = item;
      try {
        await db.send(new TransactWriteCommand({ TransactItems: [
          { Put: { TableName: table, Item: { ...moved, SK: actorSortKey(item) }, ConditionExpression: 'attribute_not_exists(PK)' } },
          { Delete: { TableName: table, Key: { PK: item.PK, SK: item.SK }, ConditionExpression: 'attribute_exists(PK)' } },
        ] }));
        counts.moved++;
      } catch (err) {
        // Only a failed condition means the record was moved or is gone; a conflict is not.
        if (!(err instanceof TransactionCanceledException) || !(err.CancellationReasons ?? []).some((r) => r.Code === 'ConditionalCheckFailed')) throw err;
        counts.gone++;
      }
    }
    log(`segment ${segment}: ${counts.records} trace records seen, ${counts.moved} moved under their actor`);
  } });
  return counts;
}
