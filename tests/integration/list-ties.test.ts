// Contract section 1: lists in time order break ties of createdAt by identifier, in the same
// direction. Relations made in the same millisecond are written here with one createdAt (a
// request cannot choose its time); every newest-first list then answers the larger id first.
import { call } from '../support/invoke';
import { makePost, users } from '../support/posts';
import { batchWrite } from '../../lib/db/batch';
import { blockEdge, blockMirror, followEdge } from '../../lib/graph/edges';
import { postLikeItem } from '../../lib/posts/edges';
import { handler as followersH } from '../../functions/users/followers';
import { handler as followingH } from '../../functions/users/following';
import { handler as likesH } from '../../functions/posts/likes';
import { handler as blockedH } from '../../functions/users/blocked';

const ids = (xs: { _id: string }[]) => xs.map((x) => x._id);
/** Newest first, ties by id descending: the order the contract asks of these lists. */
const newestFirst = (entries: { id: string; at: string }[]) =>
  [...entries].sort((a, b) => (a.at === b.at ? (a.id < b.id ? 1 : -1) : a.at < b.at ? 1 : -1)).map((e) => e.id);

it('followers, following, a post\'s likers and the blocked list: ties of createdAt by id, newest first', async () => {
  const [owner, viewer, ...others] = await users(6);
  const same = new Date(Date.now() - 60_000).toISOString();
  const earlier = new Date(Date.now() - 120_000).toISOString();
  // Three of them at the same millisecond, one before: the earlier one comes last whatever its id.
  const at = (i: number) => (i === 1 ? earlier : same);
  const entries = others.map((u, i) => ({ id: u.id, at: at(i) }));
  const post = await makePost(owner);
  await batchWrite([
    ...others.map((u, i) => followEdge(u.id, owner.id, at(i))),
    ...others.map((u, i) => followEdge(owner.id, u.id, at(i))),
    ...others.map((u, i) => postLikeItem(post._id, u.id, at(i), owner.id)),
    ...others.flatMap((u, i) => [blockEdge(viewer.id, u.id, at(i)), blockMirror(viewer.id, u.id, at(i))]),
  ].map((Item) => ({ PutRequest: { Item } })));
  const expected = newestFirst(entries);
  expect(new Set(expected.slice(0, 3).map((id) => entries.find((e) => e.id === id)!.at))).toEqual(new Set([same]));

  const followers = await call(followersH, 'GET /users/{identifier}/followers', { token: owner.token, params: { identifier: owner.id } });
  expect(ids(followers.body.followers)).toEqual(expected);
  const following = await call(followingH, 'GET /users/{identifier}/following', { token: owner.token, params: { identifier: owner.id } });
  expect(ids(following.body.following)).toEqual(expected);
  const likes = await call(likesH, 'GET /posts/{post_id}/likes', { token: owner.token, params: { post_id: post._id } });
  expect(ids(likes.body.likes)).toEqual(expected);
  const blocked = await call(blockedH, 'GET /users/blocked', { token: viewer.token });
  expect(ids(blocked.body.data)).toEqual(expected);
  // Paged one at a time, the walk keeps that order.
  const walked: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await call(followersH, 'GET /users/{identifier}/followers', { token: owner.token, params: { identifier: owner.id }, query: { limit: '1', ...(cursor ? { cursor } : {}) } });
    walked.push(...ids(page.body.followers));
    cursor = page.body.pagination.hasMore ? page.body.pagination.nextCursor : undefined;
  } while (cursor);
  expect(walked).toEqual(expected);
});
