// Reading the home feed (contract section 11): the caller's feed partition (HOME#<caller>:
// the caller's own posts and the fanned-out posts of followed authors), merged with the
// newest posts of the followed authors that are read at read time (pull sources), newest
// first by post id. What a page costs depends on the page size and the number of pull
// sources, never on how many accounts the caller follows or how many followers they have.
//
// Round trips: 1. feed entries ∥ pull sources (∥ the caller's block lists, read by
// authentication); 2. one BatchGet of the entries' posts and of the caller's follow edges
// to their authors ∥ one Query per pull source ∥ the entries' presentation (likers ∥ flags,
// started by `onCandidates` as soon as their ids are known: lib/posts/present.ts
// presentAhead). A read-time author's posts, read in round 2, are presented in a third.
// Entries whose post is gone, whose author the caller no longer follows or who is on either
// side of a block with the caller are left out at once (their storage is removed later by
// the stream); when that thins a page, the sources are read further, a bounded number of times.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import { batchGet, itemKey } from '../db/batch';
import * as keys from '../keys';
import { INDEX, PULL_PREFIX } from '../keys';
import type { PostItem } from '../posts/model';

/** Reads of the sources per page at most (the first and up to three more when filters thin the page). */
const MAX_ROUNDS = 4;

// The feed's cursor is the id of the last post of the page (FEED_CURSOR_PATTERN of
// lib/fields.ts, which the schema of GET /posts/feed checks and the OpenAPI document states):
// the next page reads the posts before it.
const encodeFeedCursor = (postId: string) => postId;

interface Source {
  /** Candidates read so far, newest first: the post itself (pull) or the entry's post id and author. */
  read: { id: string; authorId: string; post?: PostItem }[];
  next?: Record<string, unknown>;
  done: boolean;
  /** Reads up to `limit` more candidates (none once done). */
  more(limit: number): Promise<void>;
}

function querySource(input: { index?: 'GSI1'; pk: string; before?: string }, toCandidate: (item: Record<string, unknown>) => Source['read'][number], projection?: string): Source {
  const pkName = input.index ? 'GSI1PK' : 'PK';
  const skName = input.index ? 'GSI1SK' : 'SK';
  const source: Source = {
    read: [],
    done: false,
    async more(limit) {
      const res = await db.send(new QueryCommand({
        TableName: TABLE,
        ...(input.index ? { IndexName: INDEX[input.index] } : { ConsistentRead: true }),
        KeyConditionExpression: input.before ? '#pk = :pk AND #sk < :before' : '#pk = :pk',
        ExpressionAttributeNames: { '#pk': pkName, ...(input.before ? { '#sk': skName } : {}), ...(projection ? { '#a': 'authorId' } : {}) },
        ExpressionAttributeValues: { ':pk': input.pk, ...(input.before ? { ':before': input.before } : {}) },
        ...(projection ? { ProjectionExpression: projection } : {}),
        ScanIndexForward: false,
        Limit: limit,
        ExclusiveStartKey: source.next,
      }));
      source.read.push(...(res.Items ?? []).map(toCandidate));
      source.next = res.LastEvaluatedKey;
      source.done = !res.LastEvaluatedKey;
    },
  };
  return source;
}

async function pullSources(readerId: string): Promise<string[]> {
  const authors: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db.send(new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.user(readerId).PK, ':prefix': PULL_PREFIX },
      ProjectionExpression: 'SK',
      ConsistentRead: true,
      ExclusiveStartKey: start,
    }));
    authors.push(...(res.Items ?? []).map((i) => String(i.SK).slice(PULL_PREFIX.length)));
    start = res.LastEvaluatedKey;
  } while (start);
  return authors;
}

export interface FeedPage {
  posts: PostItem[];
  hasMore: boolean;
  nextCursor: string | null;
}

export async function readHomeFeed(
  caller: { userId: string; hidden(): Promise<Set<string>> },
  limit: number,
  cursor?: string,
  onCandidates: (postIds: string[]) => void = () => undefined,
): Promise<FeedPage> {
  const before = cursor;
  const want = limit + 1; // one more than the page: hasMore is exact
  const entries = querySource({ pk: keys.homeFeed(caller.userId), before }, (i) => ({ id: String(i.SK), authorId: String(i.authorId) }), 'SK, #a');
  const firstEntries = entries.more(want).then(() => onCandidates(entries.read.slice(0, limit).map((c) => c.id)));
  const [, pulled, hidden] = await Promise.all([firstEntries, pullSources(caller.userId), caller.hidden()]);
  const sources = [entries, ...pulled.map((authorId) => querySource(
    { index: 'GSI1', pk: keys.postsOf(authorId), before },
    (i) => ({ id: String(i.GSI1SK), authorId, post: i as unknown as PostItem }),
  ))];

  const judged = new Map<string, PostItem | null>(); // post id -> the post shown, or null: left out
  const follows = new Set<string>([caller.userId]);
  const checked = new Set<string>([caller.userId]);
  // Authors the caller muted (contract section 18): their mute keys ride in the same BatchGet as
  // their follow edges, so a page costs the same however many accounts the caller muted.
  const muted = new Set<string>();

  /** Reads what judging the candidates read so far needs (their posts, follow edges to new authors) beside `alongside`. */
  const resolve = async (alongside: Promise<unknown>, authorsKnown: string[] = []) => {
    const open = sources.flatMap((s) => s.read).filter((c) => !judged.has(c.id));
    const postKeys = open.filter((c) => !c.post).map((c) => keys.post(c.id));
    const authors = [...new Set([...open.map((c) => c.authorId), ...authorsKnown])].filter((a) => !checked.has(a));
    const wanted = [...postKeys, ...authors.flatMap((a) => [keys.follow(caller.userId, a), keys.mute(caller.userId, a)])];
    const [found] = await Promise.all([wanted.length ? batchGet(wanted) : Promise.resolve(new Map()), alongside]);
    for (const a of authors) {
      checked.add(a);
      if (found.has(itemKey(keys.follow(caller.userId, a)))) follows.add(a);
      if (found.has(itemKey(keys.mute(caller.userId, a)))) muted.add(a);
    }
    for (const c of sources.flatMap((s) => s.read)) {
      if (judged.has(c.id)) continue;
      const post = c.post ?? (found.get(itemKey(keys.post(c.id))) as PostItem | undefined);
      // A read-time author's posts were read beside this round's BatchGet, their follow edge within it.
      if (!post && !c.post && !postKeys.some((k) => k.PK === keys.post(c.id).PK)) continue;
      judged.set(c.id, post && follows.has(post.author) && !hidden.has(post.author) && !muted.has(post.author) ? post : null);
    }
  };

  // Round 2: the entries' posts and every author's follow edge ∥ the pull sources' first read.
  await resolve(Promise.all(sources.slice(1).map((s) => s.more(want))), pulled);
  for (let round = 1; ; round++) {
    const open = sources.filter((s) => !s.done);
    // Every open source has been read down to its last id: what is at or above the highest such
    // id is final (nothing unread can come before it).
    const frontier = open.reduce((max, s) => {
      const last = s.read[s.read.length - 1]?.id ?? '';
      return last > max ? last : max;
    }, '');
    const final = [...judged.values()]
      .filter((p): p is PostItem => p !== null && p.id >= frontier)
      .sort((a, b) => (a.id < b.id ? 1 : -1));
    if (final.length >= want || !open.length) {
      const page = final.slice(0, limit);
      const hasMore = final.length > limit;
      return { posts: page, hasMore, nextCursor: hasMore ? encodeFeedCursor(page[page.length - 1]!.id) : null };
    }
    if (round >= MAX_ROUNDS) {
      // Filters thinned every read: answer what is final, and a cursor at the frontier, below
      // which nothing has been settled, so the walk goes on where this page stopped.
      return { posts: final, hasMore: true, nextCursor: encodeFeedCursor(frontier) };
    }
    await Promise.all(open.map((s) => s.more(Math.max(want, 25))));
    await resolve(Promise.resolve());
  }
}
