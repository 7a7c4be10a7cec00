// SHA-256 / HMAC-SHA-256 in the shape @smithy/signature-v4 expects of its checksum, on
// node:crypto, for the stand-ins that check a signature (tests/support/sigv4.ts).
// The functions sign with the DynamoDB client's own hash (dynamo.config.sha256); the check
// recomputes signatures with this one of its own, so a wrong hash in lib/ would not verify itself.
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';

type SourceData = string | ArrayBuffer | ArrayBufferView;
const bytes = (d: SourceData) =>
  typeof d === 'string' ? Buffer.from(d, 'utf8')
    : ArrayBuffer.isView(d) ? Buffer.from(d.buffer, d.byteOffset, d.byteLength)
      : Buffer.from(d);

export class Sha256 {
  private hash: Hash | Hmac;
  constructor(private readonly secret?: SourceData) { this.hash = this.fresh(); }
  private fresh() { return this.secret ? createHmac('sha256', bytes(this.secret)) : createHash('sha256'); }
  update(data: SourceData) { this.hash.update(bytes(data)); }
  async digest() { return new Uint8Array(this.hash.digest()); }
  reset() { this.hash = this.fresh(); }
}
