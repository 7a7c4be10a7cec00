// Write capacity of a TransactWriteItems, computed from its input with the DynamoDB
// pricing rules, because DynamoDB Local reports it wrongly (it charges 2 WCU for a
// transaction of any number of items). Every other command's capacity is DynamoDB
// Local's own figure, which follows the rules (GSI writes included).
//
// Rules: each item of a transaction costs 2 WCU per started KB; so does each copy of it
// in a secondary index that the change touches. Which indexes an item lives in follows
// from its key (docs/ARCHITECTURE.md, "Items"): GSI1 and GSI2 project ALL attributes, so
// any change of such an item rewrites its copies; GSI3 is KEYS_ONLY over users, so only a
// change of followersCount (its sort key) or of GSI3PK touches it.

/** DynamoDB's size of an attribute value (marshalled form), close enough for rounding to 1 KB. */
function valueSize(v) {
  if (v.S !== undefined) return Buffer.byteLength(v.S);
  if (v.N !== undefined) return Math.ceil(v.N.replace(/^-|\.|e.*$/gi, '').length / 2) + 1;
  if (v.B !== undefined) return v.B.length ?? 0;
  if (v.BOOL !== undefined || v.NULL !== undefined) return 1;
  if (v.M) return 3 + itemSize(v.M);
  if (v.L) return 3 + v.L.reduce((n, x) => n + 1 + valueSize(x), 0);
  if (v.SS) return v.SS.reduce((n, s) => n + Buffer.byteLength(s), 0);
  if (v.NS) return v.NS.reduce((n, s) => n + s.length, 0);
  return 0;
}
export const itemSize = (item) => Object.entries(item ?? {}).reduce((n, [k, v]) => n + Buffer.byteLength(k) + valueSize(v), 0);

/** The indexes an item of this key lives in (the designed items; others: none). */
function indexesOf(key) {
  const pk = key.PK?.S ?? '';
  const sk = key.SK?.S ?? '';
  if (pk.startsWith('USER#') && /^(FOLLOWS|BLOCKS|BOOKMARKS)#/.test(sk)) return ['GSI1', 'GSI2'];
  if (pk.startsWith('POST#') && sk === 'POST') return ['GSI1', 'GSI2'];
  if ((pk.startsWith('POST#') || pk.startsWith('COMMENT#')) && sk.startsWith('LIKE#')) return ['GSI1'];
  if (pk.startsWith('COMMENT#') && sk === 'COMMENT') return ['GSI1'];
  if (pk.startsWith('USER#') && sk === 'PROFILE') return ['GSI3'];
  return [];
}

const KEYS_ONLY = { GSI3: ['GSI3PK', 'followersCount'] };

function updatedNames(op) {
  const names = op.ExpressionAttributeNames ?? {};
  const expr = op.UpdateExpression ?? '';
  return new Set([...expr.matchAll(/#?[A-Za-z0-9_]+/g)].map((m) => names[m[0]] ?? m[0]));
}

function itemWcu(entry) {
  const [kind, op] = Object.entries(entry)[0];
  const kb = Math.max(1, Math.ceil(itemSize(kind === 'Put' ? op.Item : op.Key) / 1024));
  if (kind === 'ConditionCheck') return 2 * kb;
  const key = kind === 'Put' ? { PK: op.Item.PK, SK: op.Item.SK } : op.Key;
  let indexes = indexesOf(key);
  if (kind === 'Put') indexes = ['GSI1', 'GSI2', 'GSI3'].filter((g) => op.Item[`${g}PK`] !== undefined);
  if (kind === 'Update') {
    const touched = updatedNames(op);
    indexes = indexes.filter((g) => !KEYS_ONLY[g] || KEYS_ONLY[g].some((a) => touched.has(a)));
  }
  return 2 * kb * (1 + indexes.length);
}

export function transactWcu(input) {
  return (input.TransactItems ?? []).reduce((n, entry) => n + itemWcu(entry), 0);
}
