// Read and validated once per cold start. A misconfigured stage fails at init,
// never halfway through a request.
import * as z from 'zod/mini';
import localConfig from '../config/local.json';

const schema = z.object({
  STAGE: z._default(z.string().check(z.minLength(1)), 'local'),
  TABLE_NAME: z.optional(z.string().check(z.minLength(1))),
  JWT_SECRET: z.optional(z.string()),
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
});

export interface Config {
  stage: string;
  tableName: string;
  jwtSecret: Uint8Array;
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
  const secret = e.JWT_SECRET || (isLocal ? localConfig.jwtSecret : '');
  if (!isLocal && (secret.length < 32 || secret === localConfig.jwtSecret)) {
    throw new Error(`Stage "${e.STAGE}" needs JWT_SECRET (at least 32 characters) from its environment`);
  }
  return {
    stage: e.STAGE,
    tableName: e.TABLE_NAME ?? (isLocal ? localConfig.tableName : ''),
    jwtSecret: new TextEncoder().encode(secret),
    issuer: e.JWT_ISSUER,
    audience: e.JWT_AUDIENCE,
    tokenTtlSeconds: e.TOKEN_TTL_SECONDS,
    sessionTtlDays: e.SESSION_TTL_DAYS,
    logRetentionDays: e.LOG_RETENTION_DAYS,
    dynamodbEndpoint: e.DYNAMODB_ENDPOINT || undefined,
    region: e.AWS_REGION,
    fanoutMaxFollowers: e.FANOUT_MAX_FOLLOWERS,
    media: mediaConfig(e.MEDIA_BUCKET, e.MEDIA_PUBLIC_URL, e.S3_ENDPOINT, isLocal),
  };
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
