// Posts and blocks for the comments tests, made through the real endpoints.
import { call } from './invoke';
import type { TestUser } from './factories';
import { makePost as createPost } from './posts';
import { block as blockUser } from './graph';
import { handler as deletePostH } from '../../functions/posts/delete';
import { getPost, type PostItem } from '../../lib/posts/model';

/** A post by `author`, as stored. */
export async function makePost(author: TestUser): Promise<PostItem> {
  const created = await createPost(author);
  const post = await getPost(created._id);
  if (!post) throw new Error('the created post is not stored');
  return post;
}

/** Deletes a post through DELETE /posts/{post_id}. */
export async function dropPost(author: TestUser, postId: string): Promise<void> {
  const res = await call(deletePostH, 'DELETE /posts/{post_id}', { token: author.token, params: { post_id: postId } });
  if (res.status !== 200) throw new Error(`delete post: ${res.status} ${res.text}`);
}

/** `blocker` blocks `blocked`. */
export async function block(blocker: TestUser, blocked: TestUser): Promise<void> {
  const res = await blockUser(blocker, blocked);
  if (res.status !== 200) throw new Error(`block: ${res.status} ${res.text}`);
}
