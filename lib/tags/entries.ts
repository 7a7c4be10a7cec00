// A tagged post's entries on its tags' pages (contract section 19): written and removed in the
// post's own transaction (creation, caption edit, deletion), so a page never shows a post
// that is gone or no longer carries the tag. `counted`: its author was public when the entry
// was written (informative: the stream counts the entry by the author's state when it moves the
// counters, lib/tags/counts.ts, and the recount job follows the account, lib/tags/recount.ts).
import { TABLE } from '../db/client';
import type { TxItem } from '../db/transact';
import * as keys from '../keys';

export interface TagEntryItem {
  PK: string;
  SK: string;
  type: 'TAG_POST';
  tag: string;
  post: string;
  author: string;
  counted: boolean;
}

export const tagEntryItem = (tag: string, postId: string, author: string, counted: boolean): TagEntryItem => ({
  ...keys.tagEntry(tag, postId), type: 'TAG_POST', tag, post: postId, author, counted,
});

/** Puts the entries of `tags` for a post. */
export const putTagEntries = (tags: string[], postId: string, author: string, counted: boolean): TxItem[] =>
  tags.map((tag) => ({ op: { Put: { TableName: TABLE, Item: tagEntryItem(tag, postId, author, counted) } } }));

/** Deletes the entries of `tags` for a post. */
export const deleteTagEntries = (tags: string[], postId: string): TxItem[] =>
  tags.map((tag) => ({ op: { Delete: { TableName: TABLE, Key: keys.tagEntry(tag, postId) } } }));

/** What an edit from `before` to `after` changes on the tag pages. */
export function tagChanges(before: string[], after: string[], postId: string, author: string, counted: boolean): TxItem[] {
  const old = new Set(before);
  const now = new Set(after);
  return [
    ...putTagEntries(after.filter((t) => !old.has(t)), postId, author, counted),
    ...deleteTagEntries(before.filter((t) => !now.has(t)), postId),
  ];
}

/** Whether an account's posts count for everyone (contract section 19): not private (`isPrivate`, section 18). */
export const isPublicAccount = (user: object): boolean => (user as { isPrivate?: unknown }).isPrivate !== true;
