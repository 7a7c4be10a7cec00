// The OpenAPI document is the truth, both ways: requests generated from docs/openapi.json
// itself (its parameters, bodies, types, bounds and patterns) are sent to every route's real
// handler, and each request is judged by the document alone (a JSON Schema validator, ajv,
// over the same schemas a client generator or a fuzzer reads):
//   - valid by the document  -> never 400 VALIDATION_ERROR;
//   - invalid by it          -> always 400 VALIDATION_ERROR;
//   - every answer has a documented status, and its body fits that status's schema.
// Values come from a small sampler over the schemas (fast-check): samples of each type and
// bound, and mutations of the route's valid request (tests/support/routes.ts) that probe each
// rule the document states (trimming, letter case, lengths, control and invisible
// characters, boundaries of numbers). The run count is kept small: FUZZ_RUNS raises it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import Ajv2020 from 'ajv/dist/2020';
import { call, type CallResult } from '../support/invoke';
import { makeUser } from '../support/factories';
import { rows, type FixtureContext, type Route } from '../support/routes';
import { SchemaChecker } from '../support/json-schema';
import { ROOT } from '../../scripts/lib/manifests.mjs';

type Schema = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const doc = JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8'));
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
const RUNS = Number(process.env.FUZZ_RUNS ?? 6);

interface Param { name: string; in: 'path' | 'query' | 'header'; required: boolean; schema: Schema }
const resolve = (p: Schema): Param => (p.$ref ? doc.components.parameters[String(p.$ref).split('/').pop()!] : p) as Param;

// ---- the sampler: values for a schema, valid or near misses ----------------------------

const SPACES = ['', ' ', '  ', '\t', '\n', '\u00a0', '\u2028', '\ufeff'];
const ODD = ['', ' ', 'a', 'A', '.', '..', '_', '-', '😀', '\u0000', '\u0007', '\u007f', '\u200f', '\u200b', '\ud800', 'é', 'K', '\u212a', '<x>', '%', '"', '\\', '/', '#', '?', 'x'.repeat(31)];

/** Strings around a string schema: its own pattern when fast-check can read it, lengths at its bounds, odd characters. */
function strings(schema: Schema, seed?: string): fc.Arbitrary<string> {
  const options: fc.Arbitrary<string>[] = [fc.constantFrom(...ODD), fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 6 })];
  if (typeof schema.pattern === 'string') {
    try { options.push(fc.stringMatching(new RegExp(schema.pattern, 'u'))); } catch { /* lookaheads: fast-check cannot generate from them */ }
  }
  const bounds = [schema.minLength, schema.maxLength, ...String(schema.description ?? '').match(/\d+/g)?.map(Number) ?? []].filter((n) => typeof n === 'number' && n < 5000) as number[];
  for (const n of bounds) options.push(fc.constantFrom(n - 1, n, n + 1).filter((k) => k >= 0).chain((k) => fc.constantFrom('a', '😀', ' ').map((c) => c.repeat(k))));
  if (seed !== undefined) options.push(mutations(seed), mutations(seed), mutations(seed));
  return fc.oneof(...options);
}

/** Mutations of a valid string: each probes one rule the document states. */
function mutations(seed: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constant(seed),
    fc.tuple(fc.constantFrom(...SPACES), fc.constantFrom(...SPACES)).map(([a, b]) => `${a}${seed}${b}`),
    fc.constantFrom(seed.toUpperCase(), seed.toLowerCase(), `.${seed}`, `${seed}.`, `${seed}..x`, seed.slice(1), seed.slice(0, -1), `${seed}${seed}`),
    fc.tuple(fc.nat(seed.length), fc.constantFrom(...ODD)).map(([i, c]) => seed.slice(0, i) + c + seed.slice(i)),
    fc.integer({ min: 1, max: 80 }).map((n) => seed.repeat(n)),
  );
}

function integers(schema: Schema): fc.Arbitrary<unknown> {
  const min = typeof schema.minimum === 'number' ? schema.minimum : -1000;
  const max = typeof schema.maximum === 'number' ? schema.maximum : 1000;
  return fc.oneof(
    fc.integer({ min, max: Math.min(max, min + 1000) }),
    fc.constantFrom(min, max, min - 1, max + 1, 0, -1),
    fc.double({ noNaN: true, min: -100, max: 100 }),
    fc.constantFrom('abc', '', ' 5', '5 ', '+5', '1e1', '1.0', '0x10', '007'),
  );
}

/** Values for a schema; `seed` is the route's valid value, when there is one. */
function sample(schema: Schema, seed?: unknown): fc.Arbitrary<unknown> {
  if (schema.anyOf) return fc.oneof(...(schema.anyOf as Schema[]).map((s) => sample(s, seed)));
  if ('const' in schema) return fc.oneof(fc.constant(schema.const), strings({}, typeof seed === 'string' ? seed : undefined));
  if (schema.type === 'integer') return integers(schema);
  if (schema.type === 'array') {
    const item = sample(schema.items ?? {}, Array.isArray(seed) ? seed[0] : undefined);
    return fc.oneof(fc.array(item, { minLength: 0, maxLength: (schema.maxItems ?? 3) + 1 }), fc.constant([]), fc.constant([1]));
  }
  if (schema.type === 'object') return object(schema, seed as Record<string, unknown> | undefined);
  if (schema.type === 'string') return strings(schema, typeof seed === 'string' ? seed : undefined);
  // No type: anything JSON.
  return fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null));
}

function object(schema: Schema, seed: Record<string, unknown> = {}): fc.Arbitrary<unknown> {
  const props = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
  const fields = props.map(([name, s]) => {
    const value = name in seed ? fc.oneof(fc.constant(seed[name]), sample(s, seed[name])) : sample(s);
    // Mostly the valid value, so that each request tests about one rule at a time.
    return fc.option(fc.oneof({ weight: 2, arbitrary: fc.constant(name in seed ? seed[name] : undefined) }, { weight: 1, arbitrary: value }), { freq: 6 })
      .map((v) => [name, v] as const);
  });
  return fc.tuple(fc.tuple(...fields), fc.option(fc.constantFrom('zzUnknown', 'a.b', 'isAdmin'), { freq: 10 }), fc.option(fc.constantFrom(false, 0, null, 'x', [], 42, {}), { freq: 12 }))
    .map(([entries, extra, whole]) => {
      if (whole !== null) return whole;
      const out: Record<string, unknown> = {};
      for (const [k, v] of entries) if (v !== undefined && v !== null) out[k] = v;
      if (extra) out[extra] = 'x';
      return out;
    });
}

const HEADER_SEEDS: Record<string, string> = {
  'X-Trace-Id': 'fuzz-trace.1:a_b', 'X-Scenario-Id': 'scenario-1', 'X-Step-Id': 'step.2',
  'X-Sim-Timestamp': '1700000000000', traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', 'Idempotency-Key': 'fuzz-key',
};
const NUMBERS = ['1.5', '-0', '+2', '.5', '5.', '1e3', '1E-2', '-1.25e+10', 'Infinity', 'NaN', '0x10', '1_000', '1e999', ' 5', '9'.repeat(15), '9'.repeat(16), '0.000001', '0.0000001'];

// ---- the document's verdict ----------------------------------------------------------

const validators = new Map<string, (v: unknown) => boolean>();
function valid(schema: Schema, value: unknown): boolean {
  const key = JSON.stringify(schema);
  let v = validators.get(key);
  if (!v) { const compiled = ajv.compile(schema); v = (x) => compiled(x) as boolean; validators.set(key, v); }
  return v(value);
}

/** The value a query string stands for under an integer schema: a canonical integer is a number. */
const typed = (schema: Schema, s: string): unknown => (schema.type === 'integer' && /^-?\d+$/.test(s) ? Number(s) : s);

interface Request { params: Record<string, string>; query: Record<string, string>; headers: Record<string, string>; body?: unknown; hasBody: boolean }

function verdict(params: Param[], bodySchema: Schema | undefined, req: Request): boolean {
  for (const p of params) {
    const where = p.in === 'path' ? req.params : p.in === 'query' ? req.query : req.headers;
    const value = where[p.name];
    if (value === undefined) { if (p.required) return false; continue; }
    if (!valid(p.schema, p.in === 'query' ? typed(p.schema, value) : value)) return false;
  }
  if (bodySchema) return req.hasBody && valid(bodySchema, req.body);
  return true;
}

// ---- the property, route by route ------------------------------------------------------

function requests(route: Route, op: Schema, base: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown }): fc.Arbitrary<Request> {
  const params = ((op.parameters ?? []) as Schema[]).map(resolve);
  // A parameter keeps the valid request's value (or stays absent) two times in three.
  const field = (p: Param, keep: string | undefined, seed: string | undefined): fc.Arbitrary<[string, string | undefined]> => {
    const values = p.schema.type === 'integer' ? integers(p.schema).map(String)
      : p.name === 'X-Sim-Timestamp' ? fc.oneof(fc.constantFrom(...NUMBERS), fc.double().map(String), mutations(seed!))
        : sample(p.schema, seed).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
    // A URL or a header carries no lone surrogate (a URL is %-escaped UTF-8): such values are not requests.
    const sendable = values.filter((v) => v.isWellFormed());
    return fc.oneof({ weight: 2, arbitrary: fc.constant(keep) }, { weight: 1, arbitrary: sendable }).map((v) => [p.name, v]);
  };
  const byIn = (where: Param['in'], seeds: Record<string, string>) =>
    fc.tuple(...params.filter((p) => p.in === where).map((p) => field(p, seeds[p.name], seeds[p.name] ?? HEADER_SEEDS[p.name])))
      .map((pairs) => Object.fromEntries(pairs.filter(([, v]) => v !== undefined)) as Record<string, string>);
  const bodySchema = op.requestBody?.content?.['application/json']?.schema as Schema | undefined;
  return fc.record({
    params: byIn('path', base.params ?? {}),
    query: byIn('query', base.query ?? {}),
    headers: byIn('header', {}),
    body: bodySchema ? fc.option(sample(bodySchema, base.body), { freq: 12, nil: undefined }) : fc.constant(undefined),
  }).map((r) => ({ ...r, hasBody: r.body !== undefined }));
}

function expectDocumented(op: Schema, res: CallResult): void {
  const documented = op.responses[String(res.status)];
  expect({ status: res.status, documented: documented !== undefined, body: documented ? undefined : res.text })
    .toEqual({ status: res.status, documented: true, body: undefined });
  const schema = documented.content?.['application/json']?.schema;
  expect({ status: res.status, problems: new SchemaChecker(doc).check(schema, res.body) }).toEqual({ status: res.status, problems: [] });
}

describe.each(rows())('%s', (_key, route) => {
  const op = doc.paths[route.path][route.method.toLowerCase()] as Schema;
  const params = ((op.parameters ?? []) as Schema[]).map(resolve);
  const bodySchema = op.requestBody?.content?.['application/json']?.schema as Schema | undefined;
  let ctx: FixtureContext;
  beforeAll(async () => { ctx = { me: await makeUser(), other: await makeUser() }; });

  it('answers requests valid by the document without VALIDATION_ERROR, refuses the others with it, and answers as documented', async () => {
    const base = await route.valid(ctx);
    await fc.assert(fc.asyncProperty(requests(route, op, base), async (req) => {
      const docValid = verdict(params, bodySchema, req);
      const res = await call(route.handler, route.key, {
        params: req.params, query: req.query, headers: req.headers, token: base.token ?? ctx.me.token,
        ...(req.hasBody ? { rawBody: JSON.stringify(req.body), headers: { ...req.headers, 'content-type': 'application/json' } } : {}),
      });
      const refusedAsInvalid = res.status === 400 && res.body?.code === 'VALIDATION_ERROR';
      expect({ request: req, docValid, refusedAsInvalid, answer: res.body }).toMatchObject({ docValid, refusedAsInvalid: !docValid });
      expectDocumented(op, res);
    }), {
      numRuns: RUNS, seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined, endOnFailure: true,
      // Always tried besides the random ones: the valid request, and its body emptied and replaced by a falsy value.
      examples: [
        [{ params: base.params ?? {}, query: base.query ?? {}, headers: {}, body: base.body, hasBody: base.body !== undefined }],
        ...(bodySchema ? [{}, false, null].map((body) => [{ params: base.params ?? {}, query: base.query ?? {}, headers: {}, body, hasBody: true }] as [Request]) : []),
      ],
    });
    // The valid request of the fixture is valid by the document as well (and so never refused).
    expect(verdict(params, bodySchema, { params: base.params ?? {}, query: base.query ?? {}, headers: {}, body: base.body, hasBody: base.body !== undefined })).toBe(true);
  });
});
