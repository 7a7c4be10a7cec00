// Whether the caller may see a post: it must exist, and to a user its author blocked,
// the author's posts do not exist (contract section 6).
import { NotFound } from '../errors';
import { relations } from '../graph/relations';
import { getPost, type PostItem } from './model';

/** The post, else 404. Likes and bookmarks need no more: their transaction checks the blocks (lib/posts/edges.ts). */
export async function existingPost(postId: string): Promise<PostItem> {
  const post = await getPost(postId);
  if (!post) throw new NotFound('post');
  return post;
}

/** The post as the caller may see it, else 404. Two sequential reads: the post, then the relation to its author. */
export async function visiblePost(postId: string, callerId: string): Promise<PostItem> {
  const post = await existingPost(postId);
  if ((await relations(callerId, [post.author])).get(post.author)!.blocksCaller) throw new NotFound('post');
  return post;
}
