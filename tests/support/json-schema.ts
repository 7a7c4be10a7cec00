// A small JSON Schema checker for the subset docs/openapi.json uses in its answers ($ref,
// allOf, type, properties, required, items, const, enum, minimum, format date-time), with
// one strictness more than JSON Schema: an object whose schema names properties may carry
// no others, so an answer field the document does not show is a failure too.
type Schema = Record<string, unknown>;

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

export class SchemaChecker {
  /** Names of the components some value was checked against. */
  readonly seen = new Set<string>();
  constructor(private readonly doc: { components: { schemas: Record<string, Schema> } }) {}

  private resolve(s: Schema): Schema {
    let cur = s;
    while (typeof cur.$ref === 'string') {
      const name = cur.$ref.replace('#/components/schemas/', '');
      this.seen.add(name);
      cur = this.doc.components.schemas[name]!;
      if (!cur) throw new Error(`unknown $ref ${String(s.$ref)}`);
    }
    return cur;
  }

  /** Property names an object may carry under `s` (allOf merged); undefined when any are allowed. */
  private allowed(s: Schema): Set<string> | undefined {
    const r = this.resolve(s);
    const names = new Set(Object.keys((r.properties as Record<string, Schema> | undefined) ?? {}));
    let open = !r.properties;
    for (const part of (r.allOf as Schema[] | undefined) ?? []) {
      const sub = this.allowed(part);
      if (sub) for (const n of sub) names.add(n);
      else open = true;
    }
    if (r.allOf) open = open && names.size === 0;
    return open ? undefined : names;
  }

  /** Every problem of `value` under `schema`, each with its JSON path. */
  check(schema: Schema, value: unknown, path = '$', strict = true): string[] {
    const s = this.resolve(schema);
    const out: string[] = [];
    // One of several answers: the value must pass one of them whole.
    if (Array.isArray(s.oneOf)) {
      const each = (s.oneOf as Schema[]).map((option) => this.check(option, value, path, strict));
      return each.some((p) => p.length === 0) ? [] : each[0]!;
    }
    for (const part of (s.allOf as Schema[] | undefined) ?? []) out.push(...this.check(part, value, path, false));
    const t = typeOf(value);
    if (s.type !== undefined) {
      const types = Array.isArray(s.type) ? s.type as string[] : [s.type as string];
      const ok = types.includes(t) || (t === 'integer' && types.includes('number'));
      if (!ok) return [...out, `${path}: ${t} is not ${types.join('|')}`];
    }
    if ('const' in s && value !== s.const) out.push(`${path}: ${JSON.stringify(value)} is not ${JSON.stringify(s.const)}`);
    if (Array.isArray(s.enum) && !s.enum.includes(value)) out.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(s.enum)}`);
    if (typeof s.minimum === 'number' && typeof value === 'number' && value < s.minimum) out.push(`${path}: ${value} < ${s.minimum}`);
    if (s.format === 'date-time' && typeof value === 'string' && !ISO_MS.test(value)) out.push(`${path}: ${value} is not an ISO timestamp with milliseconds`);
    if (t === 'array' && s.items) (value as unknown[]).forEach((v, i) => out.push(...this.check(s.items as Schema, v, `${path}[${i}]`)));
    if (t === 'object') {
      const obj = value as Record<string, unknown>;
      for (const k of (s.required as string[] | undefined) ?? []) if (!(k in obj)) out.push(`${path}.${k}: missing`);
      const props = (s.properties as Record<string, Schema> | undefined) ?? {};
      for (const [k, p] of Object.entries(props)) if (k in obj) out.push(...this.check(p, obj[k], `${path}.${k}`));
      const allowed = strict ? this.allowed(schema) : undefined;
      if (allowed) for (const k of Object.keys(obj)) if (!allowed.has(k)) out.push(`${path}.${k}: not documented`);
    }
    return out;
  }
}

/** The component names an inline schema refers to (not following the references). */
export function refsIn(s: unknown): string[] {
  if (!s || typeof s !== 'object') return [];
  const o = s as Schema;
  if (typeof o.$ref === 'string') return [o.$ref.replace('#/components/schemas/', '')];
  return Object.values(o).flatMap(refsIn);
}
