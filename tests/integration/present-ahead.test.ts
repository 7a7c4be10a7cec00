// Presenting posts whose reads were started before the posts were read (lib/posts/present.ts
// presentAhead: the home feed starts its entries' flags and recent likers items beside their
// posts, one round trip earlier): what was started is used and not read again, what was not is
// read, and the answer is the same as presenting from nothing. The recent likers items
// themselves (kept by the stream) are tested in recent-likers.test.ts.
// The request counter is the benchmark's (scripts/bench/measure.mjs), installed before the modules load.
/* eslint-disable @typescript-eslint/no-require-imports */
(require('../../scripts/bench/measure.mjs') as { installDbMetrics: () => void }).installDbMetrics();
const { makePost, users } = require('../support/posts') as typeof import('../support/posts');
const { call } = require('../support/invoke') as typeof import('../support/invoke');
const { getItem } = require('../support/db') as typeof import('../support/db');
const keys = require('../../lib/keys') as typeof import('../../lib/keys');
const { presentAhead, presentPosts } = require('../../lib/posts/present') as typeof import('../../lib/posts/present');
const { handler: likeH } = require('../../functions/posts/like') as typeof import('../../functions/posts/like');
const { handler: bookmarkH } = require('../../functions/posts/bookmark') as typeof import('../../functions/posts/bookmark');
const { likersQueries, recorded } = require('../support/db-metrics') as typeof import('../support/db-metrics');
/* eslint-enable @typescript-eslint/no-require-imports */
import type { PostItem } from '../../lib/posts/model';


it('uses the reads started ahead, reads the rest, and answers as presenting from nothing', async () => {
  const [me, author, fan] = await users(3);
  const [a, b, c] = [await makePost(author), await makePost(author), await makePost(author)];
  for (const [who, p] of [[me, a], [fan, a], [fan, b]] as const) {
    expect((await call(likeH, 'POST /posts/like/{post_id}', { token: who.token, params: { post_id: p._id } })).status).toBe(200);
  }
  expect((await call(bookmarkH, 'POST /posts/bookmark/{post_id}', { token: me.token, params: { post_id: b._id } })).status).toBe(200);
  const items = await Promise.all([a, b, c].map(async (p) => (await getItem(keys.post(p._id))) as unknown as PostItem));

  const plain = await presentPosts(items, me.id);
  const ahead = presentAhead(me.id);
  const started = await recorded(async () => { ahead.start([a._id, b._id]); await Promise.all(ahead.reads.values()); });
  // One BatchGet: flags and recent likers items (none here: no stream runs in this file).
  expect(started.map((r) => r.command)).toEqual(['BatchGetItemCommand']);
  // Starting the same ids again reads nothing more.
  expect(await recorded(async () => ahead.start([a._id]))).toEqual([]);

  let viaAhead: Awaited<ReturnType<typeof presentPosts>> | undefined;
  const rest = await recorded(async () => { viaAhead = await presentPosts(items, me.id, undefined, ahead); });
  expect(viaAhead).toEqual(plain);
  expect(plain.map((p) => [p._id, p.likes, p.isLiked, p.isBookmarked])).toEqual([
    [a._id, [fan.id, me.id], true, false],
    [b._id, [fan.id], false, true],
    [c._id, [], false, false],
  ]);
  // c's flags are read (c has no likes: no likers Query); a's and b's flags are not read again,
  // and with no recent likers item beside them (no stream here) their likes index is read.
  expect(likersQueries(rest, a._id)).toHaveLength(1);
  expect(likersQueries(rest, b._id)).toHaveLength(1);
  expect(rest.map((r) => r.command).sort()).toEqual(['BatchGetItemCommand', 'QueryCommand', 'QueryCommand']);
});
