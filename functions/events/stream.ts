// The one consumer of the table's change stream (DynamoDB Streams serves at most two readers
// per shard): each record goes through the short table of reactions below, each of which
// lives in its domain module. Locally the same handler is fed by scripts/lib/stream-poller.mjs.
// Answers with the failed records (ReportBatchItemFailures): the event source mapping retries
// from the first of them, then sends it to the on-failure queue.
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { react, type Reaction } from '../../lib/events/changes';
import { jobReaction } from '../../lib/events/jobs';
import { feedJobs, feedReactions } from '../../lib/feed/reactions';
import { notificationReactions } from '../../lib/notifications/reactions';
import { accountJobs } from '../../lib/account/cleanup';
import { recentReactions } from '../../lib/graph/recent';
import { likersReactions } from '../../lib/posts/recent-likers';
import { mediaReactions } from '../../lib/media/reactions';
import { mailReactions } from '../../lib/mail/reactions';
import { goPublicJobKind } from '../../lib/graph/go-public';
import { tagCountReactions } from '../../lib/tags/counts';
import { trendReactions } from '../../lib/tags/trends';
import { tagRecountJobKind } from '../../lib/tags/recount';
import { liveReactions } from '../../lib/live/reactions';

export const reactions: Reaction[] = [
  ...feedReactions,
  ...notificationReactions,
  ...recentReactions,
  ...likersReactions,
  ...mediaReactions,
  ...mailReactions,
  ...tagCountReactions,
  ...trendReactions,
  ...liveReactions,
  jobReaction([...feedJobs, ...accountJobs, goPublicJobKind, tagRecountJobKind]),
];

export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => react(event.Records ?? [], reactions);
