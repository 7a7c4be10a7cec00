// SSM Parameter Store's GetParameter with decryption, as one SigV4-signed HTTPS POST (the
// JSON 1.1 protocol the SDK speaks, sent by ./signed.ts with the signer, credential chain and
// hash the DynamoDB client already bundles): @aws-sdk/client-ssm would add over 100 KB to every
// function that verifies tokens (docs/ARCHITECTURE.md, "Signing keys"). Knows nothing of what
// the parameter holds.
import { SendFailed, signedPost, type AwsSigning } from './signed';

export interface SsmOptions extends AwsSigning {
  /** A stand-in server (tests); the regional endpoint when undefined. */
  endpoint?: string;
  /** Tries in all, on throttling, 5xx and network failures (default 3). */
  attempts?: number;
  /** Per try (default 2,000 ms: a route function has 10 s in all). */
  timeoutMs?: number;
}

export interface SsmParameter {
  name: string;
  type: string;
  value: string;
  version: number;
}

/** Why a parameter could not be read: SSM's error type (`AccessDeniedException`, `ParameterNotFound`...) or the transport's. */
export class SsmError extends Error {
  override name = 'SsmError';
  constructor(message: string, readonly retryable: boolean) {
    super(message);
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function once(name: string, opts: SsmOptions): Promise<SsmParameter> {
  let status: number;
  let text: string;
  try {
    ({ status, text } = await signedPost({
      service: 'ssm',
      region: opts.region,
      sdk: opts.sdk,
      url: new URL('/', opts.endpoint ?? `https://ssm.${opts.region}.amazonaws.com`),
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AmazonSSM.GetParameter' },
      body: JSON.stringify({ Name: name, WithDecryption: true }),
      timeoutMs: opts.timeoutMs ?? 2000,
    }));
  } catch (err) {
    // A failure to sign (no credentials) is not SSM's, and no retry mends it.
    if (!(err instanceof SendFailed)) throw err;
    throw new SsmError(`GetParameter ${name}: ${err.message}`, true);
  }
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  if (status !== 200) {
    // "__type" is "ParameterNotFound" or "com.amazon.coral...#ThrottlingException"-like.
    const type = String(json?.__type ?? `HTTP ${status}`).split('#').pop()!;
    const message = String(json?.message ?? json?.Message ?? '');
    throw new SsmError(`GetParameter ${name}: ${type}${message ? `: ${message}` : ''}`, status >= 500 || /Throttl|TooManyRequests/.test(type));
  }
  const p = json?.Parameter as Record<string, unknown> | undefined;
  if (!p || typeof p.Value !== 'string' || typeof p.Type !== 'string') throw new SsmError(`GetParameter ${name}: an answer without a parameter value`, false);
  return { name: String(p.Name ?? name), type: p.Type, value: p.Value, version: Number(p.Version ?? 0) };
}

/**
 * The parameter's value, decrypted (a SecureString comes back in plain text over TLS).
 * Retries what may pass (throttling: the account's GetParameter rate is shared by every
 * cold start), never an access or not-found error.
 */
export async function getParameter(name: string, opts: SsmOptions): Promise<SsmParameter> {
  const attempts = opts.attempts ?? 3;
  for (let i = 1; ; i++) {
    try {
      return await once(name, opts);
    } catch (err) {
      if (!(err instanceof SsmError) || !err.retryable || i >= attempts) throw err;
      // Full jitter: cold starts throttled together do not come back together.
      await pause(Math.random() * 100 * 2 ** i);
    }
  }
}
