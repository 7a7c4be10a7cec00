// Deferred physical cleanup. Deleting a post or a comment removes the record itself in
// the request's transaction (so every read stops showing it at once) and writes a job
// item naming the key ranges that still hold its children. A worker drains those ranges
// in pages (lib/cleanup/worker.ts), however many children there are.
import { TABLE } from '../db/client';
import type { TxItem } from '../db/transact';
import * as keys from '../keys';

/** A key range to drain: a base-table partition (optionally an SK prefix) or an index partition. */
export interface DrainRange {
  index?: 'GSI1' | 'GSI2';
  pk: string;
  skPrefix?: string;
}

export type CleanupKind = 'post' | 'comment';

/** What a deleted post leaves behind: likes, top-level comments (and so their replies), bookmarks. */
export const postRanges = (postId: string): DrainRange[] => [
  { pk: keys.post(postId).PK, skPrefix: 'LIKE#' },
  { index: 'GSI1', pk: keys.commentsOf(postId) },
  { index: 'GSI2', pk: keys.bookmarkedByOf(postId) },
];

/** What a deleted comment leaves behind: its likes and, for a top-level comment, its replies. */
export const commentRanges = (commentId: string): DrainRange[] => [
  { pk: keys.comment(commentId).PK, skPrefix: 'LIKE#' },
  { index: 'GSI1', pk: keys.repliesOf(commentId) },
];

export const rangesOf = (kind: CleanupKind, id: string) => (kind === 'post' ? postRanges(id) : commentRanges(id));

/** The job item, for the deleting transaction; `media`: ids of uploaded media deleted with the record. */
export function cleanupJobItem(kind: CleanupKind, id: string, media?: string[]): TxItem {
  const createdAt = new Date().toISOString();
  return {
    op: {
      Put: {
        TableName: TABLE,
        Item: {
          ...keys.cleanupJob(kind, id), ...keys.cleanupJobIndex(kind, id, createdAt), type: 'CLEANUP', kind, targetId: id, createdAt,
          ...(media?.length ? { media } : {}),
        },
      },
    },
  };
}
