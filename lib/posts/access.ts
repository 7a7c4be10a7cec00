// Whether the caller may see a post: it must exist, and to a user its author blocked,
// the author's posts do not exist (contract section 6).
import { NotFound } from '../errors';
import { relations, type Relation } from '../graph/relations';
import { getPost, type PostItem } from './model';

export interface VisiblePost {
  post: PostItem;
  /** How the caller stands to the author. */
  relation: Relation;
}

/** The post as the caller may see it, else 404. Two sequential reads: the post, then the relation. */
export async function visiblePost(postId: string, callerId: string): Promise<VisiblePost> {
  const post = await getPost(postId);
  if (!post) throw new NotFound('post');
  const relation = (await relations(callerId, [post.author])).get(post.author)!;
  if (relation.blocksCaller) throw new NotFound('post');
  return { post, relation };
}
