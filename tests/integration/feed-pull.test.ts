// Authors with more than FANOUT_MAX_FOLLOWERS followers (2 in this file) are read into their
// followers' feeds when the feed is read, not copied (contract section 11).
import '../support/fanout-max';
import '../support/own-stream-table';
import { makePost, users } from '../support/posts';
import { follow, unfollow, block } from '../support/graph';
import { getItem } from '../support/db';
import { eventually, startTestStream, type TestStream } from '../support/stream';
import { feedIds, storedEntries, walkFeed } from '../support/feed';
import * as keys from '../../lib/keys';
import type { TestUser } from '../support/factories';
import { config } from '../../lib/config';

const FIVE_SECONDS = 5_000;
let stream: TestStream;
beforeAll(() => { stream = startTestStream(); });
afterAll(() => stream.poller.stop());
afterEach(() => expect(stream.deadLetters).toEqual([]));

it('reads FANOUT_MAX_FOLLOWERS from the environment', () => {
  expect(config.fanoutMaxFollowers).toBe(2);
});

/** The first post past the threshold is still copied and makes the author a read-time author. */
async function becomeReadTime(star: TestUser): Promise<string> {
  const first = await makePost(star);
  expect(await getItem(keys.post(first._id))).not.toHaveProperty('fanout');
  await eventually(() => getItem(keys.user(star.id)), (u) => u?.pullReady === true);
  expect(await getItem(keys.user(star.id))).toMatchObject({ pullMode: true, pullReady: true });
  return first._id;
}

describe('a read-time author', () => {
  it('is copied to no follower, yet every follower sees the post within 5 seconds, merged in order with copied posts', async () => {
    const [star, f1, f2, f3, regular] = await users(5);
    for (const f of [f1, f2, f3]) await follow(f, star);
    await follow(f1, regular);
    const first = await becomeReadTime(star);
    // Copied to every follower while their sources were being written: nobody missed it.
    for (const f of [f1, f2, f3]) {
      const stored = await eventually(() => storedEntries(f.id), (v) => v.some((e) => e.postId === first), FIVE_SECONDS);
      expect(stored.map((e) => e.postId)).toContain(first);
    }
    const early = await makePost(regular);
    const post = await makePost(star);
    const late = await makePost(regular);
    expect(await getItem(keys.post(post._id))).toMatchObject({ fanout: false });
    for (const f of [f1, f2, f3]) expect(await eventually(() => feedIds(f.token), (v) => v.includes(post._id), FIVE_SECONDS)).toContain(post._id);
    // The star's post is read at read time, so it shows at once; the regular author's two reach
    // f1 by fan-out, through the stream, within the same 5 seconds (waiting for the star's
    // alone raced the stream on a busy machine: seen on a fresh-clone CI run, 2026-11-27).
    const expected = [late._id, post._id, early._id, first];
    await eventually(() => feedIds(f1.token), (v) => expected.every((id) => v.includes(id)), FIVE_SECONDS);
    // The first post is both copied and read at read time: it is listed once.
    expect(await feedIds(f1.token)).toEqual(expected);
    // Nothing was copied: the followers' feeds hold a pull source, not the post.
    for (const f of [f1, f2, f3]) {
      expect((await storedEntries(f.id)).map((e) => e.postId)).not.toContain(post._id);
      expect(await getItem(keys.pullSource(f.id, star.id))).toBeDefined();
    }
    expect(await feedIds(star.token)).toEqual([post._id, first]);
  });

  it('reaches a new follower, leaves at once on unfollow or block, and walks without repeats or gaps', async () => {
    const [star, f1, f2, f3, fan] = await users(5);
    for (const f of [f1, f2, f3]) await follow(f, star);
    const posts: string[] = [await becomeReadTime(star)];
    for (let i = 0; i < 7; i++) posts.push((await makePost(star))._id);
    await follow(fan, star);
    await eventually(() => getItem(keys.pullSource(fan.id, star.id)), (v) => v !== undefined, FIVE_SECONDS);
    expect(await walkFeed(fan.token, 3)).toEqual([...posts].reverse());
    expect((await unfollow(fan, star)).status).toBe(200);
    expect(await feedIds(fan.token)).toEqual([]);
    await eventually(() => getItem(keys.pullSource(fan.id, star.id)), (v) => v === undefined);
    expect(await getItem(keys.pullSource(fan.id, star.id))).toBeUndefined();
    expect((await block(star, f1)).status).toBe(200);
    expect(await feedIds(f1.token)).toEqual([]);
    expect((await feedIds(f2.token)).length).toBe(8);
  });
});
