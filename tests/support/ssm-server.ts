// A stand-in for SSM Parameter Store on loopback: answers AmazonSSM.GetParameter with the
// parameter the test set, and records every request with whether its SigV4 signature is
// right (recomputed with the test credentials of tests/support/env.ts), so a test can check
// that what lib/auth/keys.ts and scripts/token.mjs send is what SSM would accept.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySigV4 } from './sigv4';

export interface SsmRequest {
  target: string | undefined;
  contentType: string | undefined;
  body: Record<string, unknown>;
  /** The signature checks out for the test credentials, service "ssm" and the region. */
  signed: boolean;
  credentialScope: string | undefined;
}

export type SsmAnswer =
  | { parameter: { name: string; type: 'SecureString' | 'String'; value: string } }
  | { status: number; type: string; message: string };

export interface SsmServer {
  url: string;
  requests: SsmRequest[];
  answer(a: SsmAnswer): void;
  close(): Promise<void>;
}

async function verify(req: IncomingMessage, body: string, region: string): Promise<{ signed: boolean; scope: string | undefined }> {
  const v = await verifySigV4(req, body, { service: 'ssm', region });
  return { signed: v.signed && v.signedHeaders.includes('x-amz-target') && v.signedHeaders.includes('host'), scope: v.scope };
}

export async function ssmServer(region = process.env.AWS_REGION ?? 'us-east-1'): Promise<SsmServer> {
  let current: SsmAnswer = { status: 400, type: 'ParameterNotFound', message: 'no parameter set by the test' };
  const requests: SsmRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      void verify(req, text, region).then(({ signed, scope }) => {
        let body: Record<string, unknown> = {};
        try { body = JSON.parse(text) as Record<string, unknown>; } catch { /* recorded as {} */ }
        requests.push({ target: req.headers['x-amz-target'] as string | undefined, contentType: req.headers['content-type'], body, signed, credentialScope: scope });
        const answer = current;
        res.setHeader('content-type', 'application/x-amz-json-1.1');
        if (!signed) {
          res.statusCode = 400;
          res.end(JSON.stringify({ __type: 'InvalidSignatureException', message: 'The request signature we calculated does not match' }));
        } else if ('parameter' in answer) {
          const p = answer.parameter;
          if (body.Name !== p.name) {
            res.statusCode = 400;
            res.end(JSON.stringify({ __type: 'ParameterNotFound' }));
            return;
          }
          // Without decryption SSM answers a SecureString's ciphertext.
          const value = p.type === 'SecureString' && body.WithDecryption !== true ? Buffer.from(`ciphertext:${p.value}`).toString('base64') : p.value;
          res.end(JSON.stringify({ Parameter: { Name: p.name, Type: p.type, Value: value, Version: 1, ARN: `arn:aws:ssm:${region}:000000000000:parameter${p.name}`, DataType: 'text' } }));
        } else {
          res.statusCode = answer.status;
          res.end(JSON.stringify({ __type: answer.type, message: answer.message }));
        }
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answer: (a) => { current = a; },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** A key set's JSON, as an operator writes it into the parameter. */
export const keySetJson = (current: string, keys: Record<string, string>) => JSON.stringify({ current, keys });
