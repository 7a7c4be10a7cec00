// Opaque cursors of the user lists: the index sort key `<createdAt>#<id>` of the last
// relation a page covered, written URL-safe as `<the 17 digits of createdAt>.<id>`
// (LIST_CURSOR_PATTERN, which the OpenAPI document states). Everything else of the start
// key is rebuilt from it, so a cursor cannot point into another partition or smuggle
// attributes in.
import { ValidationError } from '../errors';
import { LIST_CURSOR_PATTERN } from '../fields';

const SORT_KEY = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{3})Z#([0-9A-HJKMNP-TV-Z]{26})$/;
const CURSOR = new RegExp(LIST_CURSOR_PATTERN);

export function encodeCursor(sortKey: string): string {
  const m = SORT_KEY.exec(sortKey);
  if (!m) throw new Error(`not a list sort key: ${sortKey}`);
  return `${m.slice(1, 8).join('')}.${m[8]}`;
}

/** The sort key a cursor names; a 400 VALIDATION_ERROR on anything else (a month 13, a 30 February: the pattern). */
export function decodeCursor(cursor: string): string {
  if (!CURSOR.test(cursor)) throw ValidationError.field('cursor', 'is not a valid cursor: pass the nextCursor of a previous page');
  const [d, id] = cursor.split('.') as [string, string];
  return `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}T${d.slice(8, 10)}:${d.slice(10, 12)}:${d.slice(12, 14)}.${d.slice(14, 17)}Z#${id}`;
}
