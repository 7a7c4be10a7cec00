// The cost of a tag page (contract section 19) does not grow with the tag: the same requests for
// a tag of 3 posts and one of 300. A table without a change stream: the 606 items written here
// would give a consumer minutes of work on a loaded machine that this test does not need (the
// stream's part, postsCount and the directory, is tags.test.ts's).
import '../support/own-table';
import { mute } from '../support/private';
import { call } from '../support/invoke';
import { users } from '../support/posts';
import { requestsOf } from '../support/db';
import type { TestUser } from '../support/factories';
import * as keys from '../../lib/keys';
import { batchWrite } from '../../lib/db/batch';
import { newId } from '../../lib/ids';
import { postItem } from '../../lib/posts/write';
import { tagEntryItem } from '../../lib/tags/entries';
import { handler as postsH } from '../../functions/tags/posts';

let seq = 0;
const uniqTag = () => `t${Date.now().toString(36)}${(seq++).toString(36)}`;
const page = async (u: TestUser, tag: string, query: Record<string, string> = {}) => {
  const res = await call(postsH, 'GET /tags/{tag}/posts', { token: u.token, params: { tag }, query });
  expect(res.status).toBe(200);
  return res.body as { posts: { _id: string }[]; pagination: { hasMore: boolean; nextCursor: string | null } };
};

describe('GET /tags/{tag}/posts', () => {
  it('reads the same requests for a tag of 3 posts and of 300, and skips a page of hidden posts in bounded rounds', async () => {
    const [a, viewer] = await users(2);
    const small = uniqTag();
    const large = uniqTag();
    const items: Record<string, unknown>[] = [];
    for (const [tag, n] of [[small, 3], [large, 300]] as const) {
      for (let i = 0; i < n; i++) {
        const id = newId();
        items.push({ ...postItem(id, a.id, { image: '["https://cdn.example.test/x.jpg"]', caption: `#${tag}`, image_public_id: '', hashtags: [tag] }) });
        items.push({ ...tagEntryItem(tag, id, a.id, false) });
      }
    }
    await batchWrite(items.map((Item) => ({ PutRequest: { Item } })), { parallel: 4 });
    const shape = async (tag: string) => {
      const { inputs, result } = await requestsOf(() => page(viewer, tag, { limit: '20' }));
      return { queries: inputs.filter((i) => String((i.ExpressionAttributeValues as Record<string, string> | undefined)?.[':pk'] ?? '').startsWith('TAG#')).length, posts: result.posts.length, calls: inputs.length };
    };
    const s = await shape(small);
    const l = await shape(large);
    expect([s.posts, l.posts]).toEqual([3, 20]);
    expect(s.queries).toBe(keys.TAG_SHARDS);
    expect(l.queries).toBe(keys.TAG_SHARDS);
    expect(l.calls).toBe(s.calls);
    // Every post of the tag is by a muted author: a bounded number of rounds, then a page that says there is more.
    expect((await mute(viewer, a)).status).toBe(200);
    const hidden = await page(viewer, large, { limit: '20' });
    expect(hidden.posts).toEqual([]);
    expect(hidden.pagination.hasMore).toBe(true);
  });
});
