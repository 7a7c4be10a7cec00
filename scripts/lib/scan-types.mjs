// The one-off upgrades' read of a table (`npm run migrate`, never a request path): a parallel
// Scan of the items of some types, one page at a time per segment.
import { ScanCommand } from '@aws-sdk/lib-dynamodb';

/**
 * Scans `table` with `segments` parallel segments for the items whose `type` is one of
 * `types`, projecting `projection` (attribute names, each given its own placeholder so none
 * clashes with a reserved word), and awaits `onPage(items, segment)` for each page before
 * reading the next one of that segment. `db`: a DynamoDBDocumentClient.
 */
export async function scanTypes({ db, table, types, projection, segments = 4, onPage }) {
  const names = Object.fromEntries(['type', ...projection].map((a, i) => [`#a${i}`, a]));
  const values = Object.fromEntries(types.map((t, i) => [`:t${i}`, t]));
  await Promise.all(Array.from({ length: segments }, async (_, segment) => {
    let start;
    do {
      const res = await db.send(new ScanCommand({
        TableName: table,
        Segment: segment,
        TotalSegments: segments,
        FilterExpression: `#a0 IN (${Object.keys(values).join(', ')})`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ProjectionExpression: Object.keys(names).join(', '),
        ExclusiveStartKey: start,
      }));
      await onPage(res.Items ?? [], segment);
      start = res.LastEvaluatedKey;
    } while (start);
  }));
}
