// A change record may be handled long after its time (a dead letter redriven): here the undo
// of a follow failed and waited while the user followed again. On the shared table, which has
// no stream: the records are delivered to the consumer by hand, in the order of that story.
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { users } from '../support/posts';
import { getItem } from '../support/db';
import { changeRecord as recordOf, type ChangeRecord } from '../support/stream';
import { db, TABLE } from '../../lib/db/client';
import * as keys from '../../lib/keys';
import { followEdge } from '../../lib/graph/edges';
import { handler as consumer } from '../../functions/events/stream';

const deliver = async (record: ChangeRecord) => expect(await consumer({ Records: [record as never] })).toEqual({ batchItemFailures: [] });

it('follow, unfollow (its record fails and waits), follow again, then the unfollow\'s record: one notification, of the follow that stands', async () => {
  const [me, fan] = await users(2);
  const first = followEdge(fan.id, me.id, new Date(Date.now() - 2_000).toISOString());
  await db.send(new PutCommand({ TableName: TABLE, Item: first }));
  await deliver(recordOf('INSERT', first));
  const key = keys.notification(me.id, `FOLLOW#${fan.id}`);
  expect(await getItem(key)).toMatchObject({ causeAt: first.createdAt });
  // The unfollow and the new follow; the unfollow's record is not handled yet.
  await db.send(new DeleteCommand({ TableName: TABLE, Key: keys.follow(fan.id, me.id) }));
  const again = followEdge(fan.id, me.id, new Date().toISOString());
  await db.send(new PutCommand({ TableName: TABLE, Item: again }));
  await deliver(recordOf('INSERT', again));
  // The notification there is kept, and stands for the new follow now.
  expect(await getItem(key)).toMatchObject({ causeAt: again.createdAt });
  // The old unfollow's record, at last: the notification of the follow that stands stays.
  await deliver(recordOf('REMOVE', first));
  expect(await getItem(key)).toMatchObject({ causeAt: again.createdAt });
  // The new follow's own undo removes it.
  await db.send(new DeleteCommand({ TableName: TABLE, Key: keys.follow(fan.id, me.id) }));
  await deliver(recordOf('REMOVE', again));
  expect(await getItem(key)).toBeUndefined();
});
