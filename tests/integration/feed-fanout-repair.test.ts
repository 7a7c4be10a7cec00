// The repair docs/OPERATIONS.md gives for a post's fan-out lost past the stream's 24 hours:
// the job item it shows, put back as written there, runs the fan-out again through the real
// change stream. The item is read from the document itself, so the two cannot drift apart.
import '../support/own-stream-table';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PutItemCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { dynamo, TABLE } from '../../lib/db/client';
import * as keys from '../../lib/keys';
import { batchWrite } from '../../lib/db/batch';
import { makePost, users } from '../support/posts';
import { follow } from '../support/graph';
import { getItem } from '../support/db';
import { eventually, startTestStream, type TestStream } from '../support/stream';
import { ROOT } from '../../scripts/lib/manifests.mjs';

let stream: TestStream;
beforeAll(() => { stream = startTestStream(); });
afterAll(() => stream.poller.stop());
afterEach(() => expect(stream.deadLetters).toEqual([]));

/** The put-item of the runbook, its placeholders filled in. */
function runbookItem(values: Record<string, string>): Record<string, AttributeValue> {
  const doc = readFileSync(join(ROOT, 'docs/OPERATIONS.md'), 'utf8');
  const json = /aws dynamodb put-item --table-name aperture-<stage> --item '(\{"PK":\{"S":"JOB#fanout#[^']*\})'/.exec(doc)?.[1];
  if (!json) throw new Error('docs/OPERATIONS.md no longer shows the fan-out job item');
  return JSON.parse(json.replace(/<([^>]+)>/g, (_m, name: string) => values[name] ?? (() => { throw new Error(`no value for <${name}>`); })()));
}

it('the job item of the runbook, put back, fills the followers\' feeds again', async () => {
  const [author, reader, other] = await users(3);
  await follow(reader, author);
  await follow(other, author);
  const post = await makePost(author);
  const entries = async () => [await getItem(keys.homeEntry(reader.id, post._id)), await getItem(keys.homeEntry(other.id, post._id))];
  expect((await eventually(entries, (e) => e.every(Boolean), 15_000)).every(Boolean)).toBe(true);
  // The fan-out as if it had been lost: the entries gone.
  await batchWrite([keys.homeEntry(reader.id, post._id), keys.homeEntry(other.id, post._id)].map((Key) => ({ DeleteRequest: { Key } })));
  expect((await entries()).filter(Boolean)).toEqual([]);

  const item = runbookItem({ postId: post._id, authorId: author.id, 'now, ISO 8601': new Date().toISOString() });
  await dynamo.send(new PutItemCommand({ TableName: TABLE, Item: item }));
  expect((await eventually(entries, (e) => e.every(Boolean), 15_000)).every(Boolean)).toBe(true);
  // The job ends as any job does: its item is gone.
  expect(await eventually(() => getItem(keys.job('fanout', `${post._id}#add`)), (v) => v === undefined, 15_000)).toBeUndefined();
});
