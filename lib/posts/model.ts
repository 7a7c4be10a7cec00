// The stored post and the Post object of the API. `image` is kept exactly as the seed
// returns it: a JSON-stringified array of URLs. `likes` is assembled from like edges.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../db/client';
import * as keys from '../keys';
import { isId } from '../ids';

export interface PostItem {
  PK: string;
  SK: string;
  type: 'POST';
  id: string;
  author: string;
  image: string; // JSON-stringified array of URLs
  image_public_id: string;
  caption: string;
  /** The caption's hashtags, normalized, in order of first use (contract section 19); absent = none. */
  hashtags?: string[];
  /** Ids of the accounts the caption mentions (contract section 19); absent = none. */
  mentions?: string[];
  /** One description per image, "" for none; absent = "" for each. */
  altText?: string[];
  createdAt: string;
  updatedAt: string;
  likesCount: number;
  /** When likesCount last moved (epoch ms): a hot post's like skips the optimistic attempt (lib/db/transact.ts countedChange). */
  likesCountAt?: number;
  /** Moved by every like and unlike (their transactions): the recent likers item beside the post is current while its v equals this (lib/posts/recent-likers.ts). */
  likesV?: number;
  commentsCount: number;
  /** false: the author had more than FANOUT_MAX_FOLLOWERS followers; followers' feeds read it at read time. */
  fanout?: boolean;
  /** Ids of the uploaded media the post is made of: deleted with it (lib/cleanup). */
  media?: string[];
  /** createdAt of the newest top-level comment: keeps comment timestamps unique per thread. */
  lastCommentAt?: string;
  GSI1PK: string;
  GSI1SK: string;
  GSI2PK: string;
  GSI2SK: string;
}

export interface Post {
  _id: string;
  image: string;
  image_public_id: string;
  author: string;
  caption: string;
  altText: string[];
  hashtags: string[];
  mentions: string[];
  likes: string[];
  createdAt: string;
  updatedAt: string;
}

export interface PostView extends Post {
  isLiked: boolean;
  isBookmarked: boolean;
  likesCount: number;
  commentsCount: number;
}

/** How many images a post has (`image` is the JSON-stringified array of their URLs). */
export function imageCount(image: string): number {
  try {
    const list: unknown = JSON.parse(image);
    return Array.isArray(list) ? list.length : 1;
  } catch {
    return 1;
  }
}

/** The post's alt texts, one per image ("" where none was given). */
export function altTextOf(item: Pick<PostItem, 'image' | 'altText'>): string[] {
  const n = imageCount(item.image);
  return Array.from({ length: n }, (_, i) => item.altText?.[i] ?? '');
}

export function toPost(item: PostItem, likes: string[]): Post {
  return {
    _id: item.id,
    image: item.image,
    image_public_id: item.image_public_id,
    author: item.author,
    caption: item.caption,
    altText: altTextOf(item),
    hashtags: item.hashtags ?? [],
    mentions: item.mentions ?? [],
    likes,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}

export function toPostView(item: PostItem, likes: string[], viewer: { isLiked: boolean; isBookmarked: boolean }): PostView {
  return {
    ...toPost(item, likes),
    isLiked: viewer.isLiked,
    isBookmarked: viewer.isBookmarked,
    likesCount: item.likesCount ?? 0,
    commentsCount: item.commentsCount ?? 0,
  };
}

export async function getPost(postId: string): Promise<PostItem | undefined> {
  if (!isId(postId)) return undefined;
  const res = await db.send(new GetCommand({ TableName: TABLE, Key: keys.post(postId.toUpperCase()), ConsistentRead: true }));
  return res.Item as PostItem | undefined;
}
