// A post's entry in a reader's home feed (HOME#<reader>, sort key the post id): the author's
// own, written in the post's transaction (lib/posts/write.ts), and each follower's, written by
// the fan-out (lib/feed/fanout.ts). Its shape lives with the posts, which the feed reads, so
// the posts never import the feed.
import * as keys from '../keys';

export interface HomeEntry {
  PK: string;
  SK: string;
  type: 'HOME';
  authorId: string;
}

export const homeEntry = (readerId: string, postId: string, authorId: string): HomeEntry => ({
  ...keys.homeEntry(readerId, postId), type: 'HOME', authorId,
});
