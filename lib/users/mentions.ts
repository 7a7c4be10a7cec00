// Who a text mentions (contract section 19): the accounts of its @names that are neither
// deleted nor suspended, whatever blocks, in order of first mention; names of no account are
// left out. Two round trips: the names' claims, then the ids' GONE items.
import { batchGet, itemKey } from '../db/batch';
import * as keys from '../keys';
import { ValidationError } from '../errors';
import { MAX_MENTIONS, mentionsOf } from '../text/tags';

/** The distinct @names of a text; more than MAX_MENTIONS is a 400 on `field`. */
export function mentionNames(text: string, field: string): string[] {
  const names = mentionsOf(text);
  if (names.length > MAX_MENTIONS) throw ValidationError.field(field, `may mention at most ${MAX_MENTIONS} distinct usernames`);
  return names;
}

/** The ids of the live accounts the names are, in the names' order. */
export async function mentionedIds(names: string[]): Promise<string[]> {
  if (!names.length) return [];
  const claims = await batchGet<{ userId?: string }>(names.map((n) => keys.username(n)), { projection: 'userId' });
  const ids = [...new Set(names.map((n) => claims.get(itemKey(keys.username(n)))?.userId).filter((id): id is string => !!id))];
  if (!ids.length) return [];
  const gone = await batchGet(ids.map((id) => keys.gone(id)), { projection: 'userId' });
  return ids.filter((id) => !gone.has(itemKey(keys.gone(id))));
}

/** The ids a text mentions: its names checked (400 on `field` past MAX_MENTIONS), then resolved. */
export async function textMentions(text: string, field: string): Promise<string[]> {
  return mentionedIds(mentionNames(text, field));
}
