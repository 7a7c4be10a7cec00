// One SigV4-signed POST to an AWS API, sent with fetch: the hand-signed calls that need no SDK
// client share it (lib/aws/ssm.ts: SSM GetParameter; lib/cleanup/trigger.ts: Lambda Invoke).
// The signer is @smithy/signature-v4 with the credential chain and the SHA-256 of the DynamoDB
// client (`dynamo.config`), which every function bundles already, so a signed call adds no SDK
// package to a bundle. Knows nothing of the service it calls, nor of HTTP routes.
import { SignatureV4 } from '@smithy/signature-v4';

type SignerInit = ConstructorParameters<typeof SignatureV4>[0];

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** What a signature needs besides the request: a region, and an SDK client's credential chain and hash. */
export interface AwsSigning {
  region: string;
  credentials: () => Promise<AwsCredentials>;
  /** The SDK client's SHA-256 (`dynamo.config.sha256`: node:crypto's, as the DynamoDB client signs with). */
  sha256: SignerInit['sha256'];
}

export interface SignedPost extends AwsSigning {
  /** The signing name of the service (`ssm`, `lambda`). */
  service: string;
  url: URL;
  /** Headers besides host, which is signed from the URL; all of them are signed. */
  headers: Record<string, string>;
  body: string;
  /** For sending the request and reading its answer. */
  timeoutMs: number;
}

/** The request could not be sent, or its answer not read in time: fetch's failure, under its own message. */
export class SendFailed extends Error {
  override name = 'SendFailed';
}

/**
 * Signs and sends a POST, and reads its answer whatever its status. A failure to sign (no
 * credentials) is thrown as it is; a failure to send or to read the answer within `timeoutMs`
 * is a SendFailed, so a caller can tell the transport (worth another try) from the rest.
 */
export async function signedPost(p: SignedPost): Promise<{ status: number; text: string }> {
  const { url, body } = p;
  const signer = new SignatureV4({ service: p.service, region: p.region, credentials: p.credentials, sha256: p.sha256 });
  const signed = await signer.sign({
    method: 'POST',
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port ? Number(url.port) : undefined,
    path: url.pathname,
    query: {},
    headers: { host: url.host, ...p.headers },
    body,
  });
  try {
    const res = await fetch(url, { method: 'POST', headers: signed.headers, body, signal: AbortSignal.timeout(p.timeoutMs) });
    return { status: res.status, text: await res.text() };
  } catch (err) {
    throw new SendFailed(err instanceof Error ? err.message : String(err), { cause: err });
  }
}
