// Read and validated once per cold start. A misconfigured stage fails at init,
// never halfway through a request.
import * as z from 'zod/mini';
import localConfig from '../config/local.json';

const schema = z.object({
  STAGE: z._default(z.string().check(z.minLength(1)), 'local'),
  TABLE_NAME: z.optional(z.string().check(z.minLength(1))),
  // Read only to refuse it outside the local stage: the signing keys are never in the environment.
  JWT_SECRET: z.optional(z.string()),
  // The SSM SecureString parameter holding the signing keys (a name, not a secret; lib/auth/keys.ts).
  JWT_KEYS_PARAMETER: z.optional(z.string()),
  // The key set itself, as JSON: the local stage only (tests exercise rotation with it).
  JWT_KEYS: z.optional(z.string()),
  // How long a function keeps the key set before reading the parameter again.
  JWT_KEYS_CACHE_SECONDS: z._default(z.coerce.number().check(z.int(), z.positive()), 300),
  // A stand-in SSM server (tests); the regional endpoint when unset.
  SSM_ENDPOINT: z.optional(z.string()),
  JWT_ISSUER: z._default(z.string().check(z.minLength(1)), localConfig.issuer),
  JWT_AUDIENCE: z._default(z.string().check(z.minLength(1)), localConfig.audience),
  TOKEN_TTL_SECONDS: z._default(z.coerce.number().check(z.int(), z.positive()), 900),
  SESSION_TTL_DAYS: z._default(z.coerce.number().check(z.positive()), 30),
  LOG_RETENTION_DAYS: z._default(z.coerce.number().check(z.positive()), 30),
  DYNAMODB_ENDPOINT: z.optional(z.string()),
  FANOUT_MAX_FOLLOWERS: z._default(z.coerce.number().check(z.int(), z.nonnegative()), 10_000),
  AWS_REGION: z._default(z.string().check(z.minLength(1)), 'us-east-1'),
  // Media storage (contract section 12). Locally an S3-compatible server started by npm start.
  MEDIA_BUCKET: z.optional(z.string()),
  MEDIA_PUBLIC_URL: z.optional(z.string()),
  S3_ENDPOINT: z.optional(z.string()),
  // One log line per DynamoDB call, with the request's trace id (deployed stages: serverless.yml).
  LOG_DB_CALLS: z._default(z.enum(['0', '1']), '0'),
});

export interface Config {
  stage: string;
  tableName: string;
  jwtKeys: JwtKeysConfig;
  issuer: string;
  audience: string;
  tokenTtlSeconds: number;
  /** A session ends this many days after its last refresh (or its start). */
  sessionTtlDays: number;
  logRetentionDays: number;
  dynamodbEndpoint: string | undefined;
  region: string;
  /** Authors with more followers than this are read into their followers' feeds, not copied (contract section 11). */
  fanoutMaxFollowers: number;
  media: MediaConfig;
  /** Log every DynamoDB call (command, table, index, time, capacity) under the request's trace id. */
  logDbCalls: boolean;
}

/** Where the token signing keys come from (lib/auth/keys.ts): exactly one of parameter and inline. */
export interface JwtKeysConfig {
  /** The SSM SecureString parameter's name (deployed stages). */
  parameter: string | undefined;
  /** The key set's JSON and where it is from (the local stage: JWT_KEYS, or config/local.json's jwtKeys). */
  inline: { json: string; source: string } | undefined;
  /** The key set is read again at most this often (seconds). */
  cacheSeconds: number;
  ssmEndpoint: string | undefined;
}

/** Where uploads and their variants live, and where clients read them from. */
export interface MediaConfig {
  bucket: string;
  /** Base URL of the served images (the CDN in AWS; the local S3 server's bucket URL locally), no trailing slash. */
  publicUrl: string;
  /** Only for an S3-compatible server (npm start, tests); undefined in AWS. */
  endpoint: string | undefined;
}

/** The local S3 server's account (scripts/lib/local-s3.mjs): its only key pair, valid on loopback only. */
export const LOCAL_S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
export const LOCAL_MEDIA_BUCKET = 'aperture-media-local';

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = z.safeParse(schema, env);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => i.path.join('.')).join(', ');
    throw new Error(`Invalid configuration: ${fields}`);
  }
  const e = parsed.data;
  const isLocal = e.STAGE === 'local';
  const jwtKeys = jwtKeysConfig(e, isLocal);
  return {
    stage: e.STAGE,
    tableName: e.TABLE_NAME ?? (isLocal ? localConfig.tableName : ''),
    jwtKeys,
    issuer: e.JWT_ISSUER,
    audience: e.JWT_AUDIENCE,
    tokenTtlSeconds: e.TOKEN_TTL_SECONDS,
    sessionTtlDays: e.SESSION_TTL_DAYS,
    logRetentionDays: e.LOG_RETENTION_DAYS,
    dynamodbEndpoint: e.DYNAMODB_ENDPOINT || undefined,
    region: e.AWS_REGION,
    fanoutMaxFollowers: e.FANOUT_MAX_FOLLOWERS,
    media: mediaConfig(e.MEDIA_BUCKET, e.MEDIA_PUBLIC_URL, e.S3_ENDPOINT, isLocal),
    logDbCalls: e.LOG_DB_CALLS === '1',
  };
}

const PARAMETER_NAME = /^\/[A-Za-z0-9_.\-/]{1,1010}$/;

function jwtKeysConfig(e: z.output<typeof schema>, isLocal: boolean): JwtKeysConfig {
  const parameter = e.JWT_KEYS_PARAMETER || undefined;
  const common = { cacheSeconds: e.JWT_KEYS_CACHE_SECONDS, ssmEndpoint: e.SSM_ENDPOINT || undefined };
  if (parameter !== undefined && !PARAMETER_NAME.test(parameter)) throw new Error(`JWT_KEYS_PARAMETER must be an SSM parameter name like /aperture/<stage>/jwt-keys`);
  if (!isLocal) {
    // A secret in a function's environment is readable by anyone who may read its configuration.
    if (e.JWT_SECRET !== undefined || e.JWT_KEYS !== undefined) {
      throw new Error(`Stage "${e.STAGE}" reads its signing keys from SSM (JWT_KEYS_PARAMETER), never from JWT_SECRET or JWT_KEYS in its environment`);
    }
    if (!parameter) throw new Error(`Stage "${e.STAGE}" needs JWT_KEYS_PARAMETER (the SSM SecureString parameter of its signing keys)`);
    return { parameter, inline: undefined, ...common };
  }
  if (parameter && e.JWT_KEYS) throw new Error('Set JWT_KEYS_PARAMETER or JWT_KEYS, not both');
  if (parameter) return { parameter, inline: undefined, ...common };
  const inline = e.JWT_KEYS ? { json: e.JWT_KEYS, source: 'JWT_KEYS' } : { json: JSON.stringify(localConfig.jwtKeys), source: 'config/local.json' };
  return { parameter: undefined, inline, ...common };
}

function mediaConfig(bucket: string | undefined, publicUrl: string | undefined, endpoint: string | undefined, isLocal: boolean): MediaConfig {
  const ep = endpoint ? endpoint.replace(/\/+$/, '') : undefined;
  const b = bucket || (isLocal ? LOCAL_MEDIA_BUCKET : '');
  const url = publicUrl || (ep ? `${ep}/${b}` : '');
  if (!isLocal && (!b || !url)) throw new Error(`Stage needs MEDIA_BUCKET and MEDIA_PUBLIC_URL from its environment`);
  return { bucket: b, publicUrl: url.replace(/\/+$/, ''), endpoint: ep };
}

export const config: Config = loadConfig();
if (!config.tableName) throw new Error('TABLE_NAME is required outside the local stage');
