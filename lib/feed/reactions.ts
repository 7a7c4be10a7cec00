// What the home feed does with the table's changes (the stream consumer's table of
// reactions, functions/events/stream.ts). Posts carry `fanout: false` when their author had
// more than FANOUT_MAX_FOLLOWERS followers at creation: those are read at read time.
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import * as keys from '../keys';
import { startJob } from '../events/jobs';
import { typeOf, type Change, type Reaction } from '../events/changes';
import { backfill, fanoutJob, pullSourcesJob, unfollowJob } from './fanout';

const isType = (type: string, ...events: Change['event'][]) => (c: Change) => typeOf(c) === type && events.includes(c.event);

export const feedJobs = [fanoutJob, unfollowJob, pullSourcesJob];

export const feedReactions: Reaction[] = [
  {
    name: 'feed-fanout-post',
    matches: isType('POST', 'INSERT'),
    run: async ({ newImage: post }) => {
      if (post!.fanout === false) return;
      await startJob(fanoutJob, `${post!.id}#add`, { postId: String(post!.id), authorId: String(post!.author), op: 'add' });
    },
  },
  {
    name: 'feed-remove-post',
    matches: isType('POST', 'REMOVE'),
    run: async ({ oldImage: post }) => {
      // The author's own entry was written with the post.
      await db.send(new DeleteCommand({ TableName: TABLE, Key: keys.homeEntry(String(post!.author), String(post!.id)) }));
      if (post!.fanout === false) return;
      await startJob(fanoutJob, `${post!.id}#remove`, { postId: String(post!.id), authorId: String(post!.author), op: 'remove' });
    },
  },
  {
    name: 'feed-backfill-follow',
    matches: isType('FOLLOW', 'INSERT'),
    run: ({ newImage: edge }) => backfill(String(edge!.followerId), String(edge!.followeeId)),
  },
  {
    name: 'feed-unfollow',
    matches: isType('FOLLOW', 'REMOVE'),
    run: async ({ oldImage: edge, sequenceNumber }) => {
      const readerId = String(edge!.followerId);
      const authorId = String(edge!.followeeId);
      await db.send(new DeleteCommand({ TableName: TABLE, Key: keys.pullSource(readerId, authorId) }));
      // One job per unfollow (a replay of this change finds its own job), not per pair of users.
      await startJob(unfollowJob, `${readerId}#${authorId}#${sequenceNumber}`, { readerId, authorId, since: String(edge!.createdAt) });
    },
  },
  {
    name: 'feed-pull-author',
    matches: (c) => typeOf(c) === 'USER' && c.event === 'MODIFY' && c.newImage?.pullMode === true && c.oldImage?.pullMode !== true,
    run: ({ newImage: user }) => startJob(pullSourcesJob, String(user!.id), { authorId: String(user!.id) }),
  },
];
