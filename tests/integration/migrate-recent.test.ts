// The one-off upgrade of a stage whose users, posts and comments were written before the stream
// kept their recent ids and recent likers items (scripts/lib/recent-backfill.mjs, `npm run
// migrate`). This file's table has no stream, so follows and likes leave them behind, and
// removing the attributes makes the items as an older version wrote them. One run brings each
// up to date with the stream's own refreshes, the readers then use them, and a second run
// writes nothing. A refresh whose index is not ready, or whose post's likes keep moving, is
// tried again, then left to the stream; any other error stops the upgrade. `npm run migrate`
// itself (its environment and its bundle of lib/) is run once, as a process.
import '../support/own-table';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, dynamo, TABLE } from '../../lib/db/client';
import * as keys from '../../lib/keys';
import { IndexBehind, refreshRecent } from '../../lib/graph/recent';
import { LikesMoving, refreshCommentLikers, refreshLikers } from '../../lib/posts/recent-likers';
import { currentLikers } from '../../lib/posts/likers-item';
import { recentEdges, type UserItem } from '../../lib/users/model';
import { getItem } from '../support/db';
import { follow, users } from '../support/graph';
import { makePost } from '../support/posts';
import { call } from '../support/invoke';
import { comment, created, like as likeComment } from '../support/comment-api';
import { handler as likeH } from '../../functions/posts/like';
import { migrateRecent } from '../../scripts/lib/recent-backfill.mjs';

const lib = { refreshRecent, refreshLikers, refreshCommentLikers, IndexBehind, LikesMoving };
const like = async (u: { token: string }, postId: string) =>
  expect((await call(likeH, 'POST /posts/like/{post_id}', { token: u.token, params: { post_id: postId } })).status).toBe(200);
const strip = (key: { PK: string; SK: string }, attrs: string) =>
  db.send(new UpdateCommand({ TableName: TABLE, Key: key, UpdateExpression: `REMOVE ${attrs}` }));

it('writes the recent ids of every user behind its edges and the likers item of every liked post and comment, once; readers then use them', async () => {
  const [a, b, c, d] = await users(4);
  for (const [who, whom] of [[a, b], [a, c], [d, a]] as const) expect((await follow(who, whom)).status).toBe(200);
  const p = await makePost(b);
  for (const u of [a, c, d]) await like(u, p._id);
  const cm = created(await comment(c, p._id, 'a comment'));
  expect((await likeComment(a, cm._id)).status).toBe(200);
  await makePost(c); // no likes: nothing to write
  // As an older version wrote them: a user without recent ids at all, a post without likesV.
  await strip(keys.user(a.id), 'recentV, recentFollowers, recentFollowing');
  await strip(keys.post(p._id), 'likesV');
  const userOf = async (id: string) => (await getItem(keys.user(id))) as unknown as UserItem;
  expect(recentEdges(await userOf(a.id))).toBeUndefined();
  expect(await getItem(keys.postLikers(p._id))).toBeUndefined();

  const first = await migrateRecent({ client: dynamo, table: TABLE, lib, segments: 2 });
  expect(first).toEqual({ users: 4, usersMoved: 4, liked: 2, likersMoved: 2, behind: 0, left: [] });
  expect(recentEdges(await userOf(a.id))).toEqual({ followers: [d.id], following: [c.id, b.id] });
  expect(recentEdges(await userOf(b.id))).toEqual({ followers: [a.id], following: [] });
  const post = (await getItem(keys.post(p._id)))!;
  expect(currentLikers(await getItem(keys.postLikers(p._id)), post)).toEqual([d.id, c.id, a.id]);
  expect(currentLikers(await getItem(keys.commentLikers(cm._id)), (await getItem(keys.comment(cm._id)))!)).toEqual([a.id]);

  expect(await migrateRecent({ client: dynamo, table: TABLE, lib, segments: 3 })).toEqual({ users: 0, usersMoved: 0, liked: 2, likersMoved: 0, behind: 0, left: [] });
});

it('tries a refresh whose index is not ready again, then leaves it to the stream and counts it', async () => {
  const [author, fan] = await users(2);
  const p = await makePost(author);
  await like(fan, p._id);
  const others = await migrateRecent({ client: dynamo, table: TABLE, lib });
  // The index stops showing the like (its GSI1PK taken away), as a lagging index would.
  await strip(keys.postLike(p._id, fan.id), 'GSI1PK');
  await strip(keys.postLikers(p._id), 'v');
  const lagging = await migrateRecent({ client: dynamo, table: TABLE, lib });
  expect(lagging.behind).toBe(1);
  expect(lagging.left).toEqual([`POST#${p._id}`]);
  expect(lagging.likersMoved).toBe(0);
  expect(others.behind).toBe(0);
  await db.send(new UpdateCommand({ TableName: TABLE, Key: keys.postLike(p._id, fan.id), UpdateExpression: 'SET GSI1PK = :pk', ExpressionAttributeValues: { ':pk': keys.likesOf(p._id) } }));
  expect(await migrateRecent({ client: dynamo, table: TABLE, lib })).toMatchObject({ likersMoved: 1, behind: 0 });
  expect(currentLikers(await getItem(keys.postLikers(p._id)), (await getItem(keys.post(p._id)))!)).toEqual([fan.id]);
});

/** The refreshes, with `refreshLikers` of `postId` failing `times` times with `error` before it runs; its calls and refreshRecent's counted. */
function failing(postId: string, times: number, error: () => Error) {
  const calls = { likers: 0, recent: 0 };
  return {
    calls,
    lib: {
      ...lib,
      refreshRecent: (id: string) => { calls.recent++; return refreshRecent(id); },
      refreshLikers: async (id: string) => {
        if (id === postId && ++calls.likers <= times) throw error();
        return refreshLikers(id);
      },
    },
  };
}

it('writes a likers item once its index is ready within the tries; a post whose likes keep moving is left; any other error stops the run', async () => {
  const [author, fan] = await users(2);
  const p = await makePost(author);
  await like(fan, p._id);
  const recovering = failing(p._id, 2, () => new IndexBehind('not yet'));
  expect(await migrateRecent({ client: dynamo, table: TABLE, lib: recovering.lib, segments: 1 })).toMatchObject({ likersMoved: 1, behind: 0, left: [] });
  expect(recovering.calls.likers).toBe(3);

  await like(author, p._id);
  const moving = failing(p._id, Infinity, () => new LikesMoving('still moving'));
  expect(await migrateRecent({ client: dynamo, table: TABLE, lib: moving.lib, segments: 1 })).toMatchObject({ likersMoved: 0, behind: 1, left: [`POST#${p._id}`] });
  expect(moving.calls.likers).toBe(5);

  const refused = failing(p._id, Infinity, () => new Error('AccessDenied'));
  await expect(migrateRecent({ client: dynamo, table: TABLE, lib: refused.lib, segments: 1 })).rejects.toThrow('AccessDenied');
});

it('leaves an account being deleted alone', async () => {
  const [a, b] = await users(2);
  expect((await follow(a, b)).status).toBe(200);
  await db.send(new UpdateCommand({ TableName: TABLE, Key: keys.user(a.id), UpdateExpression: 'SET deletedAt = :now', ExpressionAttributeValues: { ':now': new Date().toISOString() } }));
  const counted = failing('', 0, () => new Error('unused'));
  const run = await migrateRecent({ client: dynamo, table: TABLE, lib: counted.lib });
  expect(run).toMatchObject({ users: 1, usersMoved: 1, behind: 0 }); // b only
  expect(counted.calls.recent).toBe(1);
  expect(recentEdges(await getItem(keys.user(b.id)) as unknown as UserItem)).toEqual({ followers: [a.id], following: [] });
  expect((await getItem(keys.user(a.id)))!.recentV).toBe(0);
});

it('runs as `npm run migrate` does: its own bundle of lib/ on the table and endpoint it is given', async () => {
  const [a, b] = await users(2);
  expect((await follow(a, b)).status).toBe(200);
  const out = execFileSync(process.execPath, [join(__dirname, '../../scripts/migrate.mjs')], {
    env: { ...process.env, TABLE_NAME: TABLE, DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT }, encoding: 'utf8',
  });
  expect(out).toContain(`recent ids and likers of ${TABLE}: 2 users behind their edges (2 written)`);
  expect(recentEdges(await getItem(keys.user(a.id)) as unknown as UserItem)).toEqual({ followers: [], following: [b.id] });
}, 60_000);
