// The tag of a path (contract section 19): a tag's run as written (1-100 letters, digits,
// marks and `_`, not all digits; a `#` makes it no tag), then normalized like a caption's.
import * as z from 'zod/mini';
import { isTagRun, MAX_TAG_LENGTH, normalizeTag } from '../text/tags';

export const tagName = () => z.pipe(
  z.string().check(
    z.refine(isTagRun, `must be a tag: 1-${MAX_TAG_LENGTH} letters, digits, marks or _, not all digits, without #`),
    z.meta({ minLength: 1, pattern: '^[\\p{L}\\p{Nd}\\p{M}_]+$', description: `a hashtag without its #: 1-${MAX_TAG_LENGTH} letters, digits, marks or _ (as written), not all digits; compared after NFKC and lower-casing` }),
  ),
  z.transform(normalizeTag),
);
