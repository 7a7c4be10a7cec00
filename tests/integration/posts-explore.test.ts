import { call } from '../support/invoke';
import { makeUser } from '../support/factories';
import { makePost, users } from '../support/posts';
import { block, follow } from '../support/graph-fixtures';
import { handler as exploreH } from '../../functions/posts/explore';
import { handler as like } from '../../functions/posts/like';
import { livePostCount } from '../../lib/posts/explore';

async function walk(token: string, limit: number) {
  const ids: string[] = [];
  const totals = new Set<number>();
  let pages = 0;
  for (let page = 1; ; page++) {
    const res = await call(exploreH, 'GET /posts/explore', { token, query: { page: String(page), limit: String(limit) } });
    expect(res.status).toBe(200);
    const p = res.body.pagination;
    totals.add(p.totalPosts);
    expect(p).toEqual({ currentPage: page, totalPages: Math.ceil(p.totalPosts / limit), totalPosts: p.totalPosts, hasNextPage: page < p.totalPages, hasPrevPage: page > 1 });
    ids.push(...res.body.posts.map((x: { _id: string }) => x._id));
    pages++;
    if (!p.hasNextPage) break;
  }
  return { ids, totals, pages };
}

/** Other test files may write posts at the same time: walk until the live post count held still. */
async function stableWalk(token: string, limit: number) {
  for (let attempt = 0; ; attempt++) {
    const before = await livePostCount();
    const w = await walk(token, limit);
    if (before === (await livePostCount()) || attempt >= 5) return w;
  }
}

describe('GET /posts/explore', () => {
  it('leaves out the caller, followed authors and both sides of a block; full walk matches totalPosts exactly', async () => {
    const [me, followed, blockedByMe, blocksMe, stranger, stranger2] = await users(6);
    const own = await makePost(me);
    const hidden = [await makePost(followed), await makePost(followed), await makePost(blockedByMe), await makePost(blocksMe)];
    const visible = [await makePost(stranger), await makePost(stranger2), await makePost(stranger)];
    await follow(me.id, followed.id);
    await block(me.id, blockedByMe.id);
    await block(blocksMe.id, me.id);
    await call(like, 'POST /posts/like/{post_id}', { token: me.token, params: { post_id: visible[1]!._id } });

    const { ids, totals } = await stableWalk(me.token, 7);
    expect(totals.size).toBe(1);
    expect(ids.length).toBe([...totals][0]);
    expect(new Set(ids).size).toBe(ids.length); // each post exactly once
    for (const v of visible) expect(ids).toContain(v._id);
    for (const h of [own, ...hidden]) expect(ids).not.toContain(h._id);
    expect([...ids].sort().reverse()).toEqual(ids); // newest first

    const first = await call(exploreH, 'GET /posts/explore', { token: me.token, query: { limit: '50' } });
    const liked = first.body.posts.find((p: { _id: string }) => p._id === visible[1]!._id);
    expect(liked).toMatchObject({ isLiked: true, isBookmarked: false, likesCount: 1, commentsCount: 0, likes: [me.id] });
  });

  it('keeps exact totals and pages when many posts of followed authors come first', async () => {
    const [me, prolific, other] = await users(3);
    const older = [await makePost(other), await makePost(other)];
    for (let i = 0; i < 30; i++) await makePost(prolific);
    await follow(me.id, prolific.id);
    const { ids, totals } = await stableWalk(me.token, 1);
    expect(ids.length).toBe([...totals][0]);
    for (const o of older) expect(ids).toContain(o._id);
    expect(new Set(ids).size).toBe(ids.length);
    const res = await call(exploreH, 'GET /posts/explore', { token: me.token, query: { limit: '2' } });
    expect(res.body.posts.every((p: { author: string }) => p.author !== prolific.id)).toBe(true);
  });

  it('answers an empty page past the end with correct totals', async () => {
    const me = await makeUser();
    const res = await call(exploreH, 'GET /posts/explore', { token: me.token, query: { page: '99999', limit: '50' } });
    expect(res.status).toBe(200);
    expect(res.body.posts).toEqual([]);
    expect(res.body.pagination.totalPosts).toBeGreaterThan(0);
    expect(res.body.pagination).toMatchObject({ currentPage: 99999, hasNextPage: false, hasPrevPage: true });
  });

  it.each([[{ page: '0' }], [{ page: '-1' }], [{ page: 'abc' }], [{ limit: '0' }], [{ limit: '51' }], [{ limit: '2.5' }], [{ cursor: 'x' }]])(
    'refuses %j with 400', async (query) => {
      const me = await makeUser();
      const res = await call(exploreH, 'GET /posts/explore', { token: me.token, query });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    },
  );
});
