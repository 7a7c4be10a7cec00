// One SigV4-signed POST to an AWS API: the hand-signed calls that need no SDK client share it
// (lib/aws/ssm.ts: SSM GetParameter; lib/cleanup/trigger.ts: Lambda Invoke). Everything it uses
// is the DynamoDB client's (`dynamo.config`), which every function bundles already, so a signed
// call adds no SDK package to a bundle: the signer @smithy/signature-v4 with that client's
// credential chain and SHA-256, and its request handler and stream collector to send the request
// and read the answer. Not fetch: its first call in a process loads Node's bundled undici, about
// 23 ms of a cold start, and a deployed function's first token check reads the signing keys from
// SSM (docs/PERFORMANCE.md, "The signed calls on the SDK's own transport"). Knows nothing of the
// service it calls, nor of HTTP routes.
import { SignatureV4 } from '@smithy/signature-v4';
import type { Readable } from 'node:stream';

type SignerInit = ConstructorParameters<typeof SignatureV4>[0];

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** The parts of an SDK client's resolved configuration a signed call uses (`dynamo.config`). */
export interface AwsSdk {
  credentials: () => Promise<AwsCredentials>;
  /** node:crypto's SHA-256, as the DynamoDB client signs with. */
  sha256: SignerInit['sha256'];
  /** The client's HTTP handler: its keep-alive agents, node:https already loaded. */
  requestHandler: unknown;
  streamCollector: (body: unknown) => Promise<Uint8Array>;
}

/** What a signature needs besides the request: a region, and an SDK client's configuration. */
export interface AwsSigning {
  region: string;
  sdk: AwsSdk;
}

export interface SignedPost extends AwsSigning {
  /** The signing name of the service (`ssm`, `lambda`). */
  service: string;
  /** POST unless said (the API Gateway Management API's DELETE /@connections/{id}). */
  method?: 'POST' | 'DELETE';
  url: URL;
  /** Headers besides host and content-length, which are signed from the URL and the body; all of them are signed. */
  headers: Record<string, string>;
  body: string;
  /** For sending the request and reading its answer. */
  timeoutMs: number;
}

/** An answer as the SDK's handler gives it: header names in lower case. */
export interface Answer {
  statusCode: number;
  headers: Record<string, string | undefined>;
  body: Readable;
}

interface Handler {
  handle(request: unknown, options: { abortSignal: AbortSignal }): Promise<{ response: Answer }>;
}

/** The request could not be sent, or its answer not read in time: the transport's failure, under its own message. */
export class SendFailed extends Error {
  override name = 'SendFailed';
}

/**
 * Signs and sends a POST, and reads its answer whatever its status. A failure to sign (no
 * credentials) is thrown as it is; a failure to send or to read the answer within `timeoutMs`
 * is a SendFailed, so a caller can tell the transport (worth another try) from the rest.
 */
export async function signedPost(p: SignedPost): Promise<{ status: number; text: string }> {
  const { url, body, sdk } = p;
  const signer = new SignatureV4({ service: p.service, region: p.region, credentials: () => sdk.credentials(), sha256: sdk.sha256 });
  const signed = await signer.sign({
    method: p.method ?? 'POST',
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port ? Number(url.port) : undefined,
    path: url.pathname,
    query: {},
    headers: { host: url.host, 'content-length': String(Buffer.byteLength(body)), ...p.headers },
    body,
  });
  try {
    const response = await send(sdk, signed, p.timeoutMs);
    return { status: response.statusCode, text: await readText(sdk, response) };
  } catch (err) {
    // The handler's abort is "Request aborted", its reason (the timeout) the cause.
    const e = err as Error & { cause?: Error };
    throw new SendFailed(String(e.cause?.message ?? e.message ?? err), { cause: err });
  }
}

/**
 * Sends a signed request with the SDK client's handler: its answer, the body a Node stream to
 * read. The timeout covers the reading too: its abort also ends an answer cut off mid-way.
 */
export async function send(sdk: AwsSdk, request: unknown, timeoutMs: number): Promise<Answer> {
  return (await (sdk.requestHandler as Handler).handle(request, { abortSignal: AbortSignal.timeout(timeoutMs) })).response;
}

/** An answer's whole body as text: read to its end, which also frees its connection. */
export async function readText(sdk: AwsSdk, answer: Answer): Promise<string> {
  return Buffer.from(await sdk.streamCollector(answer.body)).toString();
}
