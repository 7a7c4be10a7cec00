// The environment reader of lib/config.ts (readEnv) against the zod schema it replaced (kept
// here, not in any bundle): for any environment, both accept it with the same values, or both
// refuse it naming the same variables in the same order. The reader exists to keep zod's
// number and enum code out of the function bundles (docs/OPERATIONS.md, "Bundle
// budget"); this test is what makes it the same reader.
import fc from 'fast-check';
import * as z from 'zod/mini';
import localConfig from '../../config/local.json';
import { loadConfig, readEnv } from '../../lib/config';

const schema = z.object({
  STAGE: z._default(z.string().check(z.minLength(1)), 'local'),
  TABLE_NAME: z.optional(z.string().check(z.minLength(1))),
  JWT_SECRET: z.optional(z.string()),
  JWT_KEYS_PARAMETER: z.optional(z.string()),
  JWT_KEYS: z.optional(z.string()),
  JWT_KEYS_CACHE_SECONDS: z._default(z.coerce.number().check(z.int(), z.positive()), 300),
  SSM_ENDPOINT: z.optional(z.string()),
  JWT_ISSUER: z._default(z.string().check(z.minLength(1)), localConfig.issuer),
  JWT_AUDIENCE: z._default(z.string().check(z.minLength(1)), localConfig.audience),
  TOKEN_TTL_SECONDS: z._default(z.coerce.number().check(z.int(), z.positive()), 900),
  SESSION_TTL_DAYS: z._default(z.coerce.number().check(z.positive()), 30),
  LOG_RETENTION_DAYS: z._default(z.coerce.number().check(z.positive()), 30),
  DYNAMODB_ENDPOINT: z.optional(z.string()),
  FANOUT_MAX_FOLLOWERS: z._default(z.coerce.number().check(z.int(), z.nonnegative()), 10_000),
  AWS_REGION: z._default(z.string().check(z.minLength(1)), 'us-east-1'),
  MEDIA_BUCKET: z.optional(z.string()),
  MEDIA_PUBLIC_URL: z.optional(z.string()),
  S3_ENDPOINT: z.optional(z.string()),
  LOG_DB_CALLS: z._default(z.coerce.number().check(z.nonnegative(), z.lte(1)), 0),
  APP_URL: z._default(z.string().check(z.minLength(1)), 'http://localhost:3000'),
  MAIL_FROM: z._default(z.string().check(z.minLength(1)), 'Aperture <no-reply@aperture.local>'),
  SES_ENDPOINT: z.optional(z.string()),
  SES_CONFIGURATION_SET: z.optional(z.string()),
  TRENDS_INTERVAL_SECONDS: z._default(z.coerce.number().check(z.int(), z.positive()), 600),
});
const NAMES = Object.keys(schema.shape);

/** What the schema made of an environment: its values, or the error loadConfig threw. */
function bySchema(env: NodeJS.ProcessEnv): { ok: true; value: unknown } | { ok: false; message: string } {
  const parsed = z.safeParse(schema, env);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, message: `Invalid configuration: ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}` };
}

function byReader(env: NodeJS.ProcessEnv): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: readEnv(env) };
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
}

// Values around every rule: empty, blank, numbers in many spellings, fractions, signs,
// bounds, the edges of the safe integer range and beyond, non-numbers.
const tricky = fc.constantFrom(
  '', ' ', '0', '-0', '1', '-1', '0.5', '1.0', '1e3', '1e-3', '2.5e1', '0x10', '0b11', '0o7', '+7', ' 42 ', '\t9\n',
  '300', '9007199254740991', '9007199254740992', '-9007199254740991', '-9007199254740993', '1e20', '-1e20', '1e400', '-1e400',
  'Infinity', '-Infinity', 'NaN', 'abc', '12abc', '.', '.5', '5.', '00012', 'local', 'prod', '/aperture/x', '2', '01',
);
const value = fc.oneof(tricky, fc.string({ maxLength: 6 }), fc.integer().map(String), fc.double().map(String));
const env = fc.dictionary(fc.constantFrom(...NAMES, 'UNRELATED', 'PATH'), value, { maxKeys: 8 });

it('reads any environment as the zod schema did: the same values, or the same variables named in the same order', () => {
  fc.assert(fc.property(env, (e) => {
    expect(byReader(e)).toEqual(bySchema(e));
  }), { numRuns: 5000 });
});

it.each([
  ['nothing set', {}],
  ['an empty stage, region and table', { STAGE: '', AWS_REGION: '', TABLE_NAME: '' }],
  ['a fraction, a float where an integer is due', { TOKEN_TTL_SECONDS: '1.5', JWT_KEYS_CACHE_SECONDS: '2.5' }],
  ['an unsafe negative integer, twice wrong', { TOKEN_TTL_SECONDS: '-1e20' }],
  ['an unsafe positive integer', { FANOUT_MAX_FOLLOWERS: '1e20' }],
  ['zero where a positive number is due, and where zero is allowed', { SESSION_TTL_DAYS: '0', FANOUT_MAX_FOLLOWERS: '0' }],
  ['an empty number', { LOG_RETENTION_DAYS: '', FANOUT_MAX_FOLLOWERS: '' }],
  ['a share that is no number', { LOG_DB_CALLS: 'true' }],
  ['a share above 1', { LOG_DB_CALLS: '1.5' }],
  ['a share below 0', { LOG_DB_CALLS: '-0.1' }],
  ['a share of 5%', { LOG_DB_CALLS: '0.05' }],
  ['every variable broken', Object.fromEntries(NAMES.map((n) => [n, n === 'LOG_DB_CALLS' ? 'yes' : n.endsWith('_SECONDS') || n.endsWith('_DAYS') || n.startsWith('FANOUT') ? 'x' : '']))],
])('%s: as the schema', (_, e: NodeJS.ProcessEnv) => {
  expect(byReader(e)).toEqual(bySchema(e));
});

it('names each broken variable in the error of loadConfig', () => {
  expect(() => loadConfig({ TOKEN_TTL_SECONDS: 'soon', LOG_DB_CALLS: '2' })).toThrow('Invalid configuration: TOKEN_TTL_SECONDS, LOG_DB_CALLS');
  expect(loadConfig({ TOKEN_TTL_SECONDS: ' 60 ', FANOUT_MAX_FOLLOWERS: '0', LOG_DB_CALLS: '0.05' })).toMatchObject({ tokenTtlSeconds: 60, fanoutMaxFollowers: 0, logDbCalls: 0.05 });
});
