// The bench's cold-start requests keep off each other's targets: what a noted cold request names
// (its token's user, path parameters, body strings), and a context that refuses those names to
// the requests that end sessions, delete or block.
/* eslint-disable @typescript-eslint/no-require-imports */
const { namedIn, scenarioContext } = require('../../scripts/bench/scenarios.mjs');
const { apiEvent } = require('../../scripts/bench/measure.mjs');
/* eslint-enable @typescript-eslint/no-require-imports */

const jwt = (sub: string) => `${Buffer.from('{"alg":"HS256"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub })).toString('base64url')}.sig`;

describe('the names of a cold-start request', () => {
  it('are its token\'s user, its path parameters and the strings of its body, at any depth', () => {
    const event = apiEvent('POST /comments/reply/{comment_id}', { token: jwt('U1'), params: { comment_id: 'C1' }, body: { text: 'hi', replyTo: 'C2', nested: { ids: ['P1'] } } });
    expect(namedIn(event).sort()).toEqual(['C1', 'C2', 'P1', 'U1', 'hi']);
  });

  it('are nothing of a request with no token, no path and no body', () => {
    expect(namedIn(apiEvent('GET /posts/explore', {}))).toEqual([]);
  });
});

describe('a scenario context with names in use', () => {
  const users = Array.from({ length: 4 }, (_, i) => ({ id: `ID${i}`, username: `user${i}` }));
  const ds = { N: 4, users, posts: [{ id: 'P0', index: 0, author: 2, comments: [{ id: 'C0', author: 3 }] }], scale: { name: 'tiny' } };
  const named = new Set(['ID0', 'user1', 'P0']);
  const ctx = scenarioContext(ds, { referenced: () => named });

  it('says which users and ids a cold request names, by id or by username', () => {
    expect([0, 1, 2, 3].map((i) => ctx.inUse(i))).toEqual([true, true, false, false]);
    expect(ctx.inUse(undefined, 'P0')).toBe(true);
    expect(ctx.inUse(undefined, 'C0')).toBe(false);
  });

  it('gives a free user none names, and knows the authors of what is named', () => {
    expect(ctx.freeUser(0)).toBe(2);
    expect(ctx.authorInUse(2)).toBe(true); // the author of P0
    expect(ctx.authorInUse(3)).toBe(false);
  });
});
