// Which Web Push endpoints are accepted (contract section 20): https URLs of public hosts; on the
// local stage also http on localhost, 127.0.0.0/8 or [::1] (the local push test service). Never
// a private, loopback, link-local, unique-local or metadata address: checked on the URL when a
// subscription is made, and on every address its host resolves to when a message is sent (the
// connection then goes to the address that was checked, so a DNS answer cannot change between
// the check and the send).
import { isIP } from 'node:net';

const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

function v4Private(ip: string): boolean {
  const [a, b] = ip.split('.').map(Number) as [number, number];
  return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31)
    || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || (a === 192 && b === 0) || (a === 198 && (b === 18 || b === 19)) || a >= 224;
}

/** Whether an IP address (v4 or v6) is anything but a public unicast address. */
export function privateAddress(ip: string): boolean {
  const addr = ip.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(addr) === 4) return v4Private(addr);
  if (isIP(addr) !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(addr);
  if (mapped) return v4Private(mapped[1]!);
  // The same, as a URL writes it: [::ffff:10.0.0.1] becomes [::ffff:a00:1].
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(addr);
  if (hex) {
    const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
    return v4Private(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  return addr === '::' || addr === '::1' || /^f[cd]/.test(addr) || /^fe[89ab]/.test(addr) || /^ff/.test(addr)
    || addr.startsWith('fd00:ec2::') || addr.startsWith('64:ff9b:') || addr.startsWith('2001:db8:');
}

/** A loopback address or name the local stage accepts over http. */
export function localLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || (isIP(h) === 4 && h.startsWith('127.'));
}

/** Why an endpoint is refused, or undefined when it is accepted. */
export function endpointProblem(endpoint: string, local: boolean): string | undefined {
  let url: URL;
  try { url = new URL(endpoint); } catch { return 'must be a URL'; }
  if (url.username || url.password) return 'must not carry credentials';
  const host = url.hostname.toLowerCase();
  if (local && localLoopback(host) && (url.protocol === 'http:' || url.protocol === 'https:')) return undefined;
  if (url.protocol !== 'https:') return 'must be an https URL';
  if (isIP(host.replace(/^\[|\]$/g, ''))) return privateAddress(host) ? 'must not name a private, loopback, link-local or metadata address' : undefined;
  if (!host.includes('.') || host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal') || host.endsWith('.local') || METADATA_HOSTS.has(host)) {
    return 'must name a public host';
  }
  return undefined;
}
