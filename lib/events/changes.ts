// The table's change stream, as the stream consumer sees it: each DynamoDB Streams record
// becomes a Change (keys and images unmarshalled), and a short table of reactions says what
// follows from it. Each reaction lives in its domain module (lib/feed, ...); this module only
// routes. Reactions must be idempotent per change: Lambda (and the local poller) deliver a
// record at least once, and a retry re-delivers every record after the first failed one.
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue as SdkAttributeValue } from '@aws-sdk/client-dynamodb';
import { logger } from '../log';

export type Item = Record<string, unknown>;

export interface Change {
  event: 'INSERT' | 'MODIFY' | 'REMOVE';
  PK: string;
  SK: string;
  /** The item after the change (INSERT, MODIFY). */
  newImage?: Item;
  /** The item before the change (MODIFY, REMOVE). */
  oldImage?: Item;
  sequenceNumber: string;
  /** A deletion by DynamoDB's TTL (not by a request or a reaction of ours). */
  byTtl: boolean;
}

export interface Reaction {
  /** For logs: which reaction failed. */
  name: string;
  matches(change: Change): boolean;
  run(change: Change): Promise<void>;
}

const image = (img: Record<string, AttributeValue> | undefined): Item | undefined =>
  img ? unmarshall(img as Record<string, SdkAttributeValue>) : undefined;

export function toChange(record: DynamoDBRecord): Change {
  const d = record.dynamodb ?? {};
  const keys = image(d.Keys) ?? {};
  return {
    event: record.eventName as Change['event'],
    PK: String(keys.PK),
    SK: String(keys.SK),
    newImage: image(d.NewImage),
    oldImage: image(d.OldImage),
    sequenceNumber: String(d.SequenceNumber),
    byTtl: record.userIdentity?.type === 'Service' && record.userIdentity?.principalId === 'dynamodb.amazonaws.com',
  };
}

/** The item type of a change (every item of the table carries `type`, or is told by its keys). */
export const typeOf = (c: Change): unknown => (c.newImage ?? c.oldImage)?.type;

/** How many items' changes are worked on at once within one batch. */
const PARALLEL_ITEMS = 10;

/**
 * Runs every matching reaction of every record. Changes of one item stay in stream order
 * (they are chained); changes of different items run side by side. The answer follows
 * Lambda's ReportBatchItemFailures contract: the lowest failed sequence number, from which
 * the whole rest of the batch is delivered again (so reactions must be idempotent).
 */
export async function react(records: DynamoDBRecord[], reactions: Reaction[]): Promise<{ batchItemFailures: { itemIdentifier: string }[] }> {
  const byItem = new Map<string, Change[]>();
  for (const record of records) {
    const change = toChange(record);
    const key = `${change.PK}\u0000${change.SK}`;
    byItem.set(key, [...(byItem.get(key) ?? []), change]);
  }
  const failed: string[] = [];
  const chains = [...byItem.values()];
  let next = 0;
  const worker = async () => {
    while (next < chains.length) {
      const chain = chains[next++]!;
      for (const change of chain) {
        const matching = reactions.filter((r) => r.matches(change));
        try {
          // Reactions of one change are independent of each other.
          await Promise.all(matching.map((r) => r.run(change).catch((err: unknown) => {
            logger.error('reaction_failed', { reaction: r.name, PK: change.PK, SK: change.SK, change: change.event, error: String(err) });
            throw err;
          })));
        } catch {
          // The rest of this item's changes wait for the retry, in order.
          failed.push(change.sequenceNumber);
          break;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_ITEMS, chains.length) }, worker));
  if (!failed.length) return { batchItemFailures: [] };
  const lowest = failed.reduce((a, b) => (BigInt(a) <= BigInt(b) ? a : b));
  return { batchItemFailures: [{ itemIdentifier: lowest }] };
}
