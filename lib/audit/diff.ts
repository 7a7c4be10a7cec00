// stateDiff of a log record: the names of the fields that changed, and just those
// fields before and after. A creation has before = {}, a deletion after = {}.
export interface StateDiff {
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  changes: string[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function diffState(before: Record<string, unknown> | null, after: Record<string, unknown> | null): StateDiff {
  if (!before && !after) return { before: {}, after: {}, changes: [] };
  if (!before) return { before: {}, after: { ...after }, changes: Object.keys(after!) };
  if (!after) return { before: { ...before }, after: {}, changes: Object.keys(before) };
  const changes = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => !same(before[k], after[k]));
  const pick = (o: Record<string, unknown>) => Object.fromEntries(changes.filter((k) => k in o).map((k) => [k, o[k]]));
  return { before: pick(before), after: pick(after), changes };
}

export const noChange = (): StateDiff => ({ before: {}, after: {}, changes: [] });
