// Reading the recent likers item beside a post or a comment (lib/posts/recent-likers.ts keeps
// it): what a page projects of it, and the rule for when it may be shown. Its own module, so
// that the readers (lib/posts/present.ts, lib/comments/list.ts) need not load the reaction.

/** What a reader reads of the item. */
export interface LikersView {
  sks?: string[];
  v?: number;
  likesCount?: number;
}

/** The item's attributes a reader projects (names, for BatchGet's ExpressionAttributeNames). */
export const LIKERS_NAMES = { '#sks': 'sks', '#v': 'v', '#lc': 'likesCount' };
export const LIKERS_PROJECTION = Object.keys(LIKERS_NAMES).join(', ');

/** The liker id of a likes index sort key, `<createdAt>#<userId>`. */
export const likerOf = (sk: string) => sk.slice(sk.lastIndexOf('#') + 1);

/**
 * The liker ids the item shows, newest first, when it is current for the record as read: at
 * its likesV and its likesCount both (a like that did not move likesV, served by the code
 * before it during a deploy, still shows in the count). Undefined: read the likes index.
 */
export function currentLikers(item: LikersView | undefined, record: { likesV?: number; likesCount?: number }): string[] | undefined {
  if (!item?.sks || Number(item.v ?? -1) !== (record.likesV ?? 0) || Number(item.likesCount ?? -1) !== (record.likesCount ?? 0)) return undefined;
  return item.sks.map(likerOf);
}
