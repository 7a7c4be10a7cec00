// A small S3 object client: presigned PUTs and signed GET / PUT / DELETE of objects, sent with
// the DynamoDB client's request handler (lib/aws/signed.ts). The signer, the credential chain
// and the hash are the ones the DynamoDB client already bundles (as lib/aws/signed.ts does for
// SSM and Lambda), so no function bundle carries the S3 SDK client: a handler that re-tags or
// presigns stays within the bundle budget (tests/deploy/bundle-size.test.ts). Path-style URLs on
// an S3-compatible endpoint (npm start, tests), virtual-hosted style in AWS.
import { createHash } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import { dynamo } from '../db/client';
import { config, LOCAL_S3_CREDENTIALS } from '../config';
import { readText, send as sendSigned, type Answer } from '../aws/signed';
import type { Readable } from 'node:stream';

const { bucket, endpoint } = config.media;

const signer = new SignatureV4({
  service: 's3',
  region: config.region,
  credentials: endpoint ? LOCAL_S3_CREDENTIALS : () => dynamo.config.credentials(),
  sha256: dynamo.config.sha256,
  // S3 signs the path as sent, not escaped twice.
  uriEscapePath: false,
});

const base = endpoint ? new URL(`${endpoint}/${bucket}/`) : new URL(`https://${bucket}.s3.${config.region}.amazonaws.com/`);
const escapeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');
const rfc3986 = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function request(method: string, key: string, query: Record<string, string>, headers: Record<string, string>, body?: Buffer | string) {
  const url = new URL(escapeKey(key), base);
  return {
    method,
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port ? Number(url.port) : undefined,
    path: url.pathname,
    query,
    headers: { host: url.host, ...headers },
    body,
  };
}

const toUrl = (req: ReturnType<typeof request>) => {
  const qs = Object.entries(req.query).map(([k, v]) => (v === '' ? rfc3986(k) : `${rfc3986(k)}=${rfc3986(String(v))}`)).join('&');
  return `${req.protocol}//${req.headers.host}${req.path}${qs ? `?${qs}` : ''}`;
};

export class S3Error extends Error {
  constructor(readonly status: number, readonly code: string) { super(`S3 answered ${status} ${code}`); }
}

/** For sending a request and reading its whole answer (a media processing reads an upload of up to 15 MB). */
export const S3_TIMEOUT = { ms: 30_000 };

/** Drains an answer's body (a read is done only when its body is). */
const drain = (res: Answer) => readText(dynamo.config, res);

async function send(method: string, key: string, opts: { query?: Record<string, string>; headers?: Record<string, string>; body?: Buffer | string } = {}): Promise<Answer> {
  const payload = opts.body ?? '';
  const headers: Record<string, string> = { ...opts.headers, 'x-amz-content-sha256': createHash('sha256').update(payload).digest('hex') };
  // With its length: the handler sends what it is given, and a body without one would go chunked.
  if (opts.body !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
  // The DynamoDB client's handler, not fetch, whose first call in a process loads undici
  // (lib/aws/signed.ts).
  const signed = await signer.sign(request(method, key, opts.query ?? {}, headers, opts.body));
  const go = () => sendSigned(dynamo.config, signed, S3_TIMEOUT.ms);
  // A kept-alive connection that S3 closed while the function was frozen fails the first
  // request sent on it. Every call here is idempotent, so a failure to send is tried once more
  // on a new connection (the SDK's clients retry it too); a timeout (the abort) is not.
  const res = await go().catch((err: Error) => {
    if (err.name === 'AbortError') throw err;
    return go();
  });
  if (res.statusCode >= 300) throw new S3Error(res.statusCode, /<Code>([^<]+)<\/Code>/.exec(await drain(res))?.[1] ?? 'Unknown');
  return res;
}

/** A presigned PUT URL with Content-Type and Content-Length signed. */
export async function presignPut(key: string, contentType: string, size: number, expiresIn: number, signingDate?: Date): Promise<string> {
  const req = request('PUT', key, {}, { 'content-type': contentType, 'content-length': String(size), 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' });
  const signed = await signer.presign(req, { expiresIn, signingDate });
  return toUrl(signed as ReturnType<typeof request>);
}

/** The object's body as a stream, with its declared length; undefined when there is none. */
export async function getObject(key: string): Promise<{ length: number | undefined; body: Readable } | undefined> {
  try {
    const res = await send('GET', key);
    const length = res.headers['content-length'];
    return { length: length === undefined ? undefined : Number(length), body: res.body };
  } catch (err) {
    // Without s3:ListBucket, S3 answers a missing key 403 rather than 404.
    if (err instanceof S3Error && (err.code === 'NoSuchKey' || err.status === 404)) return undefined;
    throw err;
  }
}

export async function putObject(key: string, body: Buffer, headers: Record<string, string>): Promise<void> {
  await drain(await send('PUT', key, { body, headers }));
}

export async function putObjectTagging(key: string, tags: Record<string, string>): Promise<void> {
  const xml = `<Tagging><TagSet>${Object.entries(tags).map(([k, v]) => `<Tag><Key>${k}</Key><Value>${v}</Value></Tag>`).join('')}</TagSet></Tagging>`;
  const md5 = createHash('md5').update(xml).digest('base64');
  await drain(await send('PUT', key, { query: { tagging: '' }, body: xml, headers: { 'content-type': 'application/xml', 'content-md5': md5 } }));
}

/** Deletes an object; a missing one is no error (S3 answers 204 either way). */
export async function deleteObject(key: string): Promise<void> {
  await drain(await send('DELETE', key));
}
