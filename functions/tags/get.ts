import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { tagName } from '../../lib/tags/fields';
import { tagPostsCount } from '../../lib/tags/counts';

export const params = z.strictObject({ tag: tagName() });

export const handler = http({ params }, async ({ params }) => ({
  body: { tag: { name: params.tag, postsCount: await tagPostsCount(params.tag) } },
}));
