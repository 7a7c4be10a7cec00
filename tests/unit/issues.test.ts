// zod issues as the contract's `details` (lib/http/issues.ts): one sentence per field.
import * as z from 'zod/mini';
import { toDetails } from '../../lib/http/issues';
import { createBody } from '../../functions/posts/create';

const details = (schema: z.ZodMiniType, input: unknown) => {
  const r = z.safeParse(schema, input, { reportInput: true });
  return r.success ? [] : toDetails(r.error.issues, 'body');
};

describe('toDetails', () => {
  it('tells a field of the wrong type that alone, not the length checks zod also ran on it', () => {
    // A media id where the array of them belongs: 26 characters, and an array holds at most 20.
    expect(details(createBody, { media: '01ARZ3NDEKTSV4RRFFQ69G5FAV' })).toEqual([{ path: 'media', message: 'must be an array' }]);
    expect(details(z.strictObject({ tags: z.array(z.string()).check(z.maxLength(2)) }), { tags: 'abc' })).toEqual([{ path: 'tags', message: 'must be an array' }]);
  });

  it('still names every field of the right type that breaks a rule, beside a mistyped one', () => {
    const schema = z.strictObject({ tags: z.array(z.string()).check(z.maxLength(2)), name: z.string().check(z.maxLength(3)) });
    expect(details(schema, { tags: ['a', 'b', 'c'], name: 5 })).toEqual([
      { path: 'tags', message: 'must hold at most 2 items' },
      { path: 'name', message: 'must be a string' },
    ]);
    expect(details(schema, { tags: [], name: 'long', extra: 1 })).toEqual([
      { path: 'name', message: 'must be at most 3 characters long' },
      { path: 'extra', message: 'is not a known field' },
    ]);
  });
});
