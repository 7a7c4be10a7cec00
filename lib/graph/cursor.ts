// Opaque cursors of the user lists: base64url of the index sort key `<createdAt>#<id>` of
// the last relation a page covered. Everything else of the start key is rebuilt from it,
// so a cursor cannot point into another partition or smuggle attributes in.
import { ValidationError } from '../errors';

const SORT_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z#[0-9A-HJKMNP-TV-Z]{26}$/;

export const encodeCursor = (sortKey: string) => Buffer.from(sortKey, 'utf8').toString('base64url');

/** The sort key a cursor names; a 400 VALIDATION_ERROR on anything else. */
export function decodeCursor(cursor: string): string {
  const bad = () => ValidationError.field('cursor', 'is not a valid cursor: pass the nextCursor of a previous page');
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw bad();
  const sortKey = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!SORT_KEY.test(sortKey) || encodeCursor(sortKey) !== cursor) throw bad();
  return sortKey;
}
