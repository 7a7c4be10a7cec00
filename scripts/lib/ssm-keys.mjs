// The stage's JWT key set for the scripts (plain Node, which cannot import lib/): one
// SigV4-signed AmazonSSM.GetParameter with decryption, as lib/aws/ssm.ts sends it from the
// functions, with the operator's credentials and region (the DynamoDB client's chain), and
// the same checks lib/auth/keys.ts makes of the value (tests/integration/token-script.test.ts).
import { createHash, createHmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';

const bytes = (d) => (typeof d === 'string' ? Buffer.from(d, 'utf8') : ArrayBuffer.isView(d) ? Buffer.from(d.buffer, d.byteOffset, d.byteLength) : Buffer.from(d));
class Sha256 {
  constructor(secret) { this.secret = secret; this.reset(); }
  update(data) { this.hash.update(bytes(data)); }
  async digest() { return new Uint8Array(this.hash.digest()); }
  reset() { this.hash = this.secret ? createHmac('sha256', bytes(this.secret)) : createHash('sha256'); }
}

const KID = /^[A-Za-z0-9._-]{1,64}$/;

/** { kid, secret } of the current key of the set in SSM parameter `name`; throws an Error that says why not. */
export async function currentKey({ name, region, endpoint, credentials }) {
  const url = new URL('/', endpoint || `https://ssm.${region}.amazonaws.com`);
  const body = JSON.stringify({ Name: name, WithDecryption: true });
  const signer = new SignatureV4({ service: 'ssm', region, credentials, sha256: Sha256 });
  const signed = await signer.sign({
    method: 'POST', protocol: url.protocol, hostname: url.hostname, port: url.port ? Number(url.port) : undefined, path: url.pathname, query: {},
    headers: { host: url.host, 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AmazonSSM.GetParameter' },
    body,
  });
  const res = await fetch(url, { method: 'POST', headers: signed.headers, body, signal: AbortSignal.timeout(10_000) });
  const json = await res.json().catch(() => ({}));
  if (res.status !== 200) throw new Error(`GetParameter ${name}: ${String(json.__type ?? `HTTP ${res.status}`).split('#').pop()}${json.message ? `: ${json.message}` : ''}`);
  const p = json.Parameter ?? {};
  if (p.Type !== 'SecureString') throw new Error(`${name} is a ${p.Type} parameter, not a SecureString`);
  let set;
  try { set = JSON.parse(p.Value); } catch { set = undefined; }
  const secret = set?.keys?.[set?.current];
  if (typeof set?.current !== 'string' || !KID.test(set.current) || typeof secret !== 'string' || secret.length < 32) {
    throw new Error(`${name} does not hold a key set {"current":"<kid>","keys":{"<kid>":"<secret of 32+ characters>"}} whose current key exists`);
  }
  return { kid: set.current, secret };
}
