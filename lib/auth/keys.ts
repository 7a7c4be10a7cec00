// The access tokens' signing keys: a key set `{ "current": <kid>, "keys": { <kid>: <secret> } }`.
// Tokens are signed with the current key and carry its kid; a token verifies against the key
// its kid names, so during a rotation two keys are valid at once (docs/OPERATIONS.md,
// "Signing keys"). Deployed stages read the set from an SSM SecureString parameter
// (JWT_KEYS_PARAMETER) on first use, keep it in module scope and read it again at most every
// JWT_KEYS_CACHE_SECONDS, so a rotation reaches every function without a deployment. The
// local stage's set is config/local.json's (or JWT_KEYS). Nothing here ever signs with a
// missing or half-read set: no set, no token, and the request is a 500.
import * as z from 'zod/mini';
import { config, type JwtKeysConfig } from '../config';
import { dynamo } from '../db/client';
import { getParameter } from '../aws/ssm';
import { logger } from '../log';
import * as localConfig from '../../config/local.json';

const KID = /^[A-Za-z0-9._-]{1,64}$/;
const KID_RULE = 'must be a kid of 1-64 letters, digits, ".", "_" or "-"';
/** A rotation needs two keys; a few more leave room for mistakes, not for a growing list. */
export const MAX_KEYS = 5;
export const MIN_SECRET_LENGTH = 32;

// The entries of `keys` are checked by hand below: z.record would add 2.4 KB to each of the
// 51 bundles that verify tokens, for one check at cold start.
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const schema = z.strictObject({
  current: z.string().check(z.regex(KID, KID_RULE)),
  keys: z.custom<Record<string, unknown>>(isObject, 'must be an object of kids and secrets'),
});

/** Problems of the `keys` entries: kids and secrets. */
function entryProblems(keys: Record<string, unknown>): string[] {
  return Object.entries(keys).flatMap(([kid, secret]) => [
    // Not shown: a secret pasted where its kid belongs would land in the logs.
    ...(KID.test(kid) ? [] : [`keys has a kid that ${KID_RULE} (not shown)`]),
    ...(!KID.test(kid) ? [] : typeof secret !== 'string' ? [`keys.${kid} must be a string`]
      : secret.length < MIN_SECRET_LENGTH ? [`keys.${kid} must be a secret of at least ${MIN_SECRET_LENGTH} characters`] : []),
  ]);
}

/** zod/mini carries no locale: its own messages are "Invalid input"; say what is wrong instead. */
function issueText(i: z.core.$ZodIssue): string {
  const where = i.path.map(String).join('.') || '(root)';
  // A field name is shown only when it cannot be a secret pasted in the wrong place.
  if (i.code === 'unrecognized_keys') return `${where} has unknown fields ${i.keys.map((k) => (/^[A-Za-z_]{1,20}$/.test(k) ? `"${k}"` : '(not shown)')).join(', ')} (only "current" and "keys")`;
  if (i.code === 'invalid_type') return `${where} must be ${i.expected === 'object' ? 'an object' : `a ${i.expected}`}`;
  return `${where} ${i.message}`;
}

export interface KeySet {
  /** The kid new tokens are signed with. */
  current: string;
  signingKey: Uint8Array;
  /** Every key a token may name, the current one included. */
  keys: ReadonlyMap<string, Uint8Array>;
}

/** A key set that cannot be used: the message says why, and never contains a secret. */
export class InvalidKeySet extends Error {
  override name = 'InvalidKeySet';
}

/** A key set from its JSON text, or InvalidKeySet. `source` names where it came from, for the message. */
export function parseKeySet(text: string, source: string, opts: { deployed: boolean }): KeySet {
  const fail = (why: string) => new InvalidKeySet(`The JWT key set of ${source} is invalid: ${why}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw fail('not JSON of the form {"current":"<kid>","keys":{"<kid>":"<secret>"}}');
  }
  const parsed = z.safeParse(schema, json);
  // Paths and messages only: an issue's input would be a secret.
  if (!parsed.success) throw fail(parsed.error.issues.map(issueText).join('; '));
  const problems = entryProblems(parsed.data.keys);
  if (problems.length) throw fail(problems.join('; '));
  const { current } = parsed.data;
  const keys = parsed.data.keys as Record<string, string>;
  const kids = Object.keys(keys);
  if (!kids.length) throw fail('"keys" is empty');
  if (kids.length > MAX_KEYS) throw fail(`more than ${MAX_KEYS} keys`);
  if (!(current in keys)) throw fail(`"current" names "${current}", which is not in "keys"`);
  const secrets = Object.values(keys);
  if (new Set(secrets).size !== secrets.length) throw fail('two kids share one secret');
  if (opts.deployed && Object.values(localConfig.jwtKeys.keys).some((k) => secrets.includes(k))) throw fail('it holds the development key of config/local.json');
  const encoded = new Map(Object.entries(keys).map(([kid, secret]) => [kid, new TextEncoder().encode(secret)]));
  return { current, signingKey: encoded.get(current)!, keys: encoded };
}

/** After a failed first read, the next request tries again no sooner than this (a burst does not hammer SSM). */
const FIRST_READ_RETRY_MS = 1000;
/** After a failed re-read, the cached set serves this long (at most the cache interval) before the next try. */
const REREAD_RETRY_MS = 30_000;

/**
 * One key set, read on first use and again once `ttlMs` has passed. Concurrent callers share
 * one read. A failed re-read keeps the set it had (and logs); a failed first read throws.
 */
export class KeyStore {
  private set: KeySet | undefined;
  private refreshAt = 0;
  private pending: Promise<KeySet> | undefined;
  private failure: { error: Error; until: number } | undefined;

  constructor(
    private readonly load: () => Promise<KeySet>,
    private readonly ttlMs: number,
    private readonly source: string,
    private readonly now: () => number = Date.now,
  ) {}

  async get(): Promise<KeySet> {
    if (this.set && this.now() < this.refreshAt) return this.set;
    if (this.pending) return this.pending;
    if (!this.set && this.failure && this.now() < this.failure.until) throw this.failure.error;
    this.pending = this.read().finally(() => { this.pending = undefined; });
    return this.pending;
  }

  private async read(): Promise<KeySet> {
    try {
      const set = await this.load();
      this.set = set;
      this.failure = undefined;
      this.refreshAt = this.now() + this.ttlMs;
      return set;
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      if (!this.set) {
        this.failure = { error, until: this.now() + FIRST_READ_RETRY_MS };
        throw error;
      }
      // A broken value is an operator's mistake that the next cold start will not survive:
      // an ERROR line (the alarm on ERROR lines, docs/OPERATIONS.md); an unreachable SSM a warning.
      const log = error instanceof InvalidKeySet ? logger.error : logger.warn;
      log('jwt_keys_reread_failed', { source: this.source, error: error.name, message: error.message, keptKid: this.set.current });
      this.refreshAt = this.now() + Math.min(this.ttlMs, REREAD_RETRY_MS);
      return this.set;
    }
  }
}

/** The key set's reader for a configuration: the SSM parameter, or the inline JSON (parsed now, so a bad one fails the cold start). */
export function keyStoreFor(c: JwtKeysConfig, region: string, deployed: boolean): KeyStore {
  if (c.parameter) {
    const name = c.parameter;
    const source = `SSM parameter ${name}`;
    return new KeyStore(async () => {
      // Signed and sent with the DynamoDB client's credential chain, hash and handler (lib/aws/signed.ts).
      const p = await getParameter(name, { region, endpoint: c.ssmEndpoint, sdk: dynamo.config });
      // A String parameter would be the secret in plain text at rest (and in every describe call).
      if (p.type !== 'SecureString') throw new InvalidKeySet(`The JWT key set of ${source} is invalid: it is a ${p.type} parameter, not a SecureString`);
      return parseKeySet(p.value, source, { deployed });
    }, c.cacheSeconds * 1000, source);
  }
  const { json, source } = c.inline!;
  const set = parseKeySet(json, source, { deployed });
  return new KeyStore(async () => set, c.cacheSeconds * 1000, source);
}

/** The process's key set (module scope: one read per cold start and per cache interval). */
export const jwtKeys = keyStoreFor(config.jwtKeys, config.region, config.stage !== 'local');
