// The check a stand-in for an AWS API makes of a request's SigV4 signature: recomputed with
// the test credentials (tests/support/env.ts), the service and region it should be signed
// for, and the date and headers the request says it signed. Shared by tests/support/ssm-server.ts
// and the cleanup trigger's test.
import type { IncomingMessage } from 'node:http';
import { SignatureV4 } from '@smithy/signature-v4';
import { Sha256 } from './sha256';

const AUTH = /^AWS4-HMAC-SHA256 Credential=([^,]+), SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/;

export interface SigV4Check {
  /** The signature is right for these credentials, service and region. */
  signed: boolean;
  /** `<date>/<region>/<service>/aws4_request`, as the request states it. */
  scope: string | undefined;
  signedHeaders: string[];
}

export async function verifySigV4(req: IncomingMessage, body: string, at: { service: string; region: string }): Promise<SigV4Check> {
  const m = AUTH.exec(String(req.headers.authorization ?? ''));
  if (!m) return { signed: false, scope: undefined, signedHeaders: [] };
  const [, credential, signedHeaders, signature] = m as unknown as [string, string, string, string];
  const headers: Record<string, string> = {};
  for (const h of signedHeaders.split(';')) headers[h] = String(req.headers[h] ?? '');
  const date = String(req.headers['x-amz-date'] ?? '');
  const signingDate = new Date(`${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`);
  const signer = new SignatureV4({
    service: at.service, region: at.region, sha256: Sha256,
    credentials: { accessKeyId: process.env.AWS_ACCESS_KEY_ID!, secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY!, sessionToken: process.env.AWS_SESSION_TOKEN },
  });
  const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
  const expected = await signer.sign({
    method: req.method ?? 'POST', protocol: 'http:', hostname: url.hostname, port: Number(url.port), path: url.pathname, query: {}, headers, body,
  }, { signingDate });
  return {
    signed: String(expected.headers.authorization).endsWith(`Signature=${signature}`),
    scope: credential.split('/').slice(1).join('/'),
    signedHeaders: signedHeaders.split(';'),
  };
}
