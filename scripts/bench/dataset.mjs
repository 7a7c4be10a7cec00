// The benchmark's data sets, as a deterministic model: who follows, blocks, likes,
// bookmarks and comments on what. The shape per user is the same at every scale (same
// follows per user, likes per post, comments per post...), only the number of users and
// posts grows, so a per-call cost that grows with the scale is the design's fault.
import { ulid } from 'ulid';

/** Per-user shape shared by every scale. */
export const SHAPE = {
  postsPerUser: 5,
  follows: 20, // each user follows the next 20 users (so also has 20 followers)
  likesPerPost: 5,
  commentsPerPost: 3, // top-level comments
  repliesPerComment: 2,
  likesPerComment: 1, // on top-level comments
  bookmarksPerUser: 5,
  logsPerTrace: 3, // one trace per user
  // A few users' second trace, flooded: their own records and, under the same trace id, another
  // user's refused requests, each keeping the 4 KiB of body a refused request's record keeps.
  floodedTraces: 4,
  floodPerTrace: 200,
};

export const SCALES = {
  '1x': { name: '1x', users: 200, ...SHAPE },
  '10x': { name: '10x', users: 2000, ...SHAPE },
  // For the harness test only: tiny, same kinds of items.
  tiny: { name: 'tiny', users: 12, postsPerUser: 2, follows: 3, likesPerPost: 2, commentsPerPost: 2, repliesPerComment: 2, likesPerComment: 1, bookmarksPerUser: 2, logsPerTrace: 2, floodedTraces: 1, floodPerTrace: 3 },
};

export const PASSWORD = 'bench-password-1';
const FIRST = ['ada', 'alan', 'grace', 'linus', 'edsger', 'barbara', 'ken', 'dennis', 'margaret', 'donald', 'frances', 'john', 'radia', 'tim', 'sophie', 'guido'];
const LAST = ['lovelace', 'turing', 'hopper', 'torvalds', 'dijkstra', 'liskov', 'thompson', 'ritchie', 'hamilton', 'knuth', 'allen', 'mccarthy', 'perlman', 'berners', 'wilson', 'rossum'];
const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const DAY = 86_400_000;

const mod = (a, n) => ((a % n) + n) % n;
const iso = (ms) => new Date(ms).toISOString();

/**
 * Builds the model of one scale. `tag` keeps usernames and e-mails unique when several
 * data sets share a table (the harness test).
 */
export function buildDataset(scale, tag = '') {
  const N = scale.users;
  const blockOffset = Math.floor(N / 2) + 1;
  if (N < 2 * scale.follows + 4) throw new Error(`scale ${scale.name}: too few users for ${scale.follows} follows`);
  const width = String(N - 1).length;

  const users = Array.from({ length: N }, (_, i) => {
    const createdMs = T0 + i * 1000;
    const username = `${tag}user_${String(i).padStart(width, '0')}`;
    return {
      i,
      id: ulid(createdMs),
      username,
      email: `${username}@bench.test`,
      name: `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}`,
      createdAt: iso(createdMs),
    };
  });

  // Relations as pure functions of user indexes.
  const follows = (a, b) => { const d = mod(b - a, N); return d >= 1 && d <= scale.follows; };
  const blocks = (a, b) => mod(b - a, N) === blockOffset;
  const blockedEitherWay = (a, b) => blocks(a, b) || blocks(b, a);
  const followingOf = (a) => Array.from({ length: scale.follows }, (_, k) => mod(a + 1 + k, N));
  const followersOf = (b) => Array.from({ length: scale.follows }, (_, k) => mod(b - 1 - k, N));

  /** `count` distinct users other than `exclude`, none blocked either way with `author`. */
  const pick = (count, seed, author) => {
    const out = [];
    const stride = [7, 11, 13, 17, 19, 23].find((s) => N % s !== 0) ?? 1;
    for (let t = 0; out.length < count && t < 4 * N; t++) {
      const u = mod(seed + t * stride, N);
      if (u === author || blockedEitherWay(u, author) || out.includes(u)) continue;
      out.push(u);
    }
    return out;
  };

  const posts = [];
  const comments = [];
  for (let a = 0; a < N; a++) {
    for (let k = 0; k < scale.postsPerUser; k++) {
      const index = a * scale.postsPerUser + k;
      // Posts spread over 30 days, interleaved across authors, all unique times.
      const createdMs = T0 + DAY + k * N * 60_000 + a * 60_000;
      const post = {
        index,
        id: ulid(createdMs),
        author: a,
        createdAt: iso(createdMs),
        likers: pick(scale.likesPerPost, index * 13 + 5, a),
        comments: [],
      };
      const commenters = pick(scale.commentsPerPost, index * 17 + 3, a);
      commenters.forEach((c, ci) => {
        const cMs = createdMs + (ci + 1) * 10_000;
        const comment = {
          id: ulid(cMs), post: index, author: c, parent: null, createdAt: iso(cMs), replies: [],
          likers: pick(scale.likesPerComment, index * 5 + ci * 3 + 1, c).filter((u) => !blockedEitherWay(u, a)),
        };
        const repliers = pick(scale.repliesPerComment, index * 19 + ci * 7 + 11, a).filter((u) => !blockedEitherWay(u, c));
        repliers.forEach((r, ri) => {
          const rMs = cMs + (ri + 1) * 1000;
          const reply = { id: ulid(rMs), post: index, author: r, parent: comment.id, createdAt: iso(rMs), replies: [], likers: [] };
          comment.replies.push(reply);
          comments.push(reply);
        });
        post.comments.push(comment);
        comments.push(comment);
      });
      posts.push(post);
    }
  }
  // A user's bookmarks: posts of authors they are not blocked with, not their own.
  const bookmarksOf = (u) => {
    const out = [];
    for (let t = 0; out.length < scale.bookmarksPerUser && t < posts.length; t++) {
      const p = posts[mod(u * 31 + t * 97, posts.length)];
      if (p.author === u || blockedEitherWay(u, p.author) || out.includes(p.index)) continue;
      out.push(p.index);
    }
    return out;
  };

  return {
    scale, N, users, posts, comments, blockOffset,
    follows, blocks, blockedEitherWay, followingOf, followersOf, bookmarksOf,
    traceOf: (u) => `${tag || 'bench-'}trace-${u}`,
    /** The flooded trace of user u < scale.floodedTraces (SHAPE). */
    floodedTraceOf: (u) => `${tag || 'bench-'}flooded-${u}`,
    /** Times of the edges: after both users exist, before any post. */
    edgeTime: (a, b) => iso(T0 + N * 1000 + (a * N + b) * 10),
  };
}
