// Read and validated once per cold start. A misconfigured stage fails at init,
// never halfway through a request.
import * as localConfig from '../config/local.json';

// The environment is read by hand, not with a zod schema: the schema put zod's number, enum
// and coercion code into every function bundle for these few checks (3 to 7 KB minified;
// docs/OPERATIONS.md, "Bundle budget"). The rules are the schema's, to the letter
// (the schema stays in tests/unit/config.test.ts, which holds the two side by side): a default
// stands for an unset variable only, an empty one is checked; a number is `Number(value)` and
// finite; an integer is a safe one; the error names every variable that is not valid, in this
// order.

/** Reads variables and collects the names of those that are not valid. */
export class EnvReader {
  readonly bad: string[] = [];
  constructor(private readonly env: NodeJS.ProcessEnv) {}

  /** A string, or undefined when unset; when `nonEmpty`, an empty one is not valid. */
  optional(name: string, nonEmpty = false): string | undefined {
    const v: unknown = this.env[name];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || (nonEmpty && v.length < 1)) this.bad.push(name);
    return v as string;
  }

  /** A non-empty string, or `fallback` when unset. */
  text(name: string, fallback: string): string {
    return this.optional(name, true) ?? fallback;
  }

  /** A finite number above `min` (or from it, `inclusive`) and at most `max`, a safe integer if `int`; `fallback` when unset. */
  number(name: string, fallback: number, rule: { int?: boolean; min: number; inclusive?: boolean; max?: number }): number {
    const v = this.env[name];
    if (v === undefined) return fallback;
    const n = Number(v);
    // Not a number, or a fraction where an integer is due: one problem, nothing more is checked.
    if (!Number.isFinite(n) || (rule.int && !Number.isInteger(n))) {
      this.bad.push(name);
      return n;
    }
    // An integer out of the safe range is a problem of its own, and the bound is still checked (zod names it twice).
    if (rule.int && !Number.isSafeInteger(n)) this.bad.push(name);
    if (rule.inclusive ? !(n >= rule.min) : !(n > rule.min)) this.bad.push(name);
    if (rule.max !== undefined && n > rule.max) this.bad.push(name);
    return n;
  }
}

/** The variables the stack reads, checked; throws `Invalid configuration: <names>` naming those that are not valid. */
export function readEnv(env: NodeJS.ProcessEnv) {
  const r = new EnvReader(env);
  const positiveInt = { int: true, min: 0 };
  const e = {
    STAGE: r.text('STAGE', 'local'),
    TABLE_NAME: r.optional('TABLE_NAME', true),
    // Read only to refuse it outside the local stage: the signing keys are never in the environment.
    JWT_SECRET: r.optional('JWT_SECRET'),
    // The SSM SecureString parameter holding the signing keys (a name, not a secret; lib/auth/keys.ts).
    JWT_KEYS_PARAMETER: r.optional('JWT_KEYS_PARAMETER'),
    // The key set itself, as JSON: the local stage only (tests exercise rotation with it).
    JWT_KEYS: r.optional('JWT_KEYS'),
    // How long a function keeps the key set before reading the parameter again.
    JWT_KEYS_CACHE_SECONDS: r.number('JWT_KEYS_CACHE_SECONDS', 300, positiveInt),
    // A stand-in SSM server (tests); the regional endpoint when unset.
    SSM_ENDPOINT: r.optional('SSM_ENDPOINT'),
    JWT_ISSUER: r.text('JWT_ISSUER', localConfig.issuer),
    JWT_AUDIENCE: r.text('JWT_AUDIENCE', localConfig.audience),
    TOKEN_TTL_SECONDS: r.number('TOKEN_TTL_SECONDS', 900, positiveInt),
    SESSION_TTL_DAYS: r.number('SESSION_TTL_DAYS', 30, { min: 0 }),
    LOG_RETENTION_DAYS: r.number('LOG_RETENTION_DAYS', 30, { min: 0 }),
    DYNAMODB_ENDPOINT: r.optional('DYNAMODB_ENDPOINT'),
    FANOUT_MAX_FOLLOWERS: r.number('FANOUT_MAX_FOLLOWERS', 10_000, { int: true, min: 0, inclusive: true }),
    AWS_REGION: r.text('AWS_REGION', 'us-east-1'),
    // Media storage (contract section 12). Locally an S3-compatible server started by npm start.
    MEDIA_BUCKET: r.optional('MEDIA_BUCKET'),
    MEDIA_PUBLIC_URL: r.optional('MEDIA_PUBLIC_URL'),
    S3_ENDPOINT: r.optional('S3_ENDPOINT'),
    // The share of requests whose DynamoDB calls are logged, one line each with the request's
    // trace id (lib/db/metrics.ts; deployed stages: 0.05, serverless.yml); failed calls always.
    LOG_DB_CALLS: r.number('LOG_DB_CALLS', 0, { min: 0, inclusive: true, max: 1 }),
    // E-mail (contract section 16): links are built from APP_URL, never from a request header.
    APP_URL: r.text('APP_URL', 'http://localhost:3000'),
    MAIL_FROM: r.text('MAIL_FROM', 'Aperture <no-reply@aperture.local>'),
    // An SES v2-compatible server (npm start's aws-ses-v2-local, tests); SES itself when unset.
    SES_ENDPOINT: r.optional('SES_ENDPOINT'),
    SES_CONFIGURATION_SET: r.optional('SES_CONFIGURATION_SET'),
    // Trending tags are computed at most this often (contract section 19).
    TRENDS_INTERVAL_SECONDS: r.number('TRENDS_INTERVAL_SECONDS', 600, positiveInt),
  };
  if (r.bad.length) throw new Error(`Invalid configuration: ${r.bad.join(', ')}`);
  return e;
}

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
  /** The share of requests whose DynamoDB calls are logged (command, table, index, time, capacity) under their trace id; 0: none. */
  logDbCalls: number;
  mail: MailConfig;
  /** Trending tags are computed at most this often (seconds). */
  trendsIntervalSeconds: number;
}

/** Where e-mail comes from and goes through (lib/mail). */
export interface MailConfig {
  /** The app's base URL, no trailing slash: every link of an e-mail starts with it. */
  appUrl: string;
  from: string;
  /** Only for an SES-compatible server (npm start, tests); undefined in AWS. */
  endpoint: string | undefined;
  configurationSet: string | undefined;
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
  const e = readEnv(env);
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
    logDbCalls: e.LOG_DB_CALLS,
    mail: { appUrl: e.APP_URL.replace(/\/+$/, ''), from: e.MAIL_FROM, endpoint: e.SES_ENDPOINT || undefined, configurationSet: e.SES_CONFIGURATION_SET || undefined },
    trendsIntervalSeconds: e.TRENDS_INTERVAL_SECONDS,
  };
}

const PARAMETER_NAME = /^\/[A-Za-z0-9_.\-/]{1,1010}$/;

function jwtKeysConfig(e: ReturnType<typeof readEnv>, isLocal: boolean): JwtKeysConfig {
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
