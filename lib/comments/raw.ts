// The item a cancelled transaction returns (ReturnValuesOnConditionCheckFailure) comes
// back in DynamoDB's wire form: the document client does not unmarshall it.
type Raw = Record<string, unknown> | undefined;

export function rawString(item: Raw, name: string): string | undefined {
  const v = item?.[name];
  if (typeof v === 'string') return v;
  const s = (v as { S?: unknown } | undefined)?.S;
  return typeof s === 'string' ? s : undefined;
}

export function rawNumber(item: Raw, name: string): number | undefined {
  const v = item?.[name];
  if (typeof v === 'number') return v;
  const n = (v as { N?: unknown } | undefined)?.N;
  return typeof n === 'string' ? Number(n) : undefined;
}
