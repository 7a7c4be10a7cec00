import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { intParam } from '../../lib/fields';
import { ValidationError } from '../../lib/errors';
import { tagQuery } from '../../lib/text/tags';
import { searchTags } from '../../lib/tags/search';

export const query = z.strictObject({
  query: z.string().check(z.minLength(1), z.maxLength(100), z.meta({ description: 'a tag name\'s beginning, 1-100 characters; a leading # is ignored' })),
  limit: intParam(1, 50, 20),
});

export const handler = http({ query }, async ({ query }) => {
  const prefix = tagQuery(query.query);
  if (prefix === '') throw ValidationError.field('query', 'must hold more than a #');
  return { body: { tags: prefix === undefined ? [] : await searchTags(prefix, query.limit) } };
});
