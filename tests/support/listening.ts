// Which addresses a local server listens on (contract sections 10 and 12: every local server of
// the stack on loopback only). On Linux, read from the kernel's socket tables (/proc/net/tcp and
// tcp6: every listening socket with its local address, whatever the firewall lets through);
// elsewhere, by connecting to the port on each of the machine's other addresses.
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';

export interface Listener { address: string; port: number; inode: string }

/** An address of /proc/net/tcp{,6}: 32-bit words in host (little-endian) order. */
function decode(hex: string): string {
  const words = hex.match(/.{8}/g)!.map((w) => w.match(/../g)!.reverse().map((b) => parseInt(b, 16)));
  if (words.length === 1) return words[0]!.join('.');
  const bytes = words.flat();
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 255 && bytes[11] === 255) return `::ffff:${bytes.slice(12).join('.')}`;
  const groups = Array.from({ length: 8 }, (_, i) => ((bytes[2 * i]! << 8) | bytes[2 * i + 1]!).toString(16));
  const full = groups.join(':');
  return full === '0:0:0:0:0:0:0:0' ? '::' : full === '0:0:0:0:0:0:0:1' ? '::1' : full;
}

/** Every listening TCP socket of the machine, or undefined where the kernel's tables cannot be read. */
export function listeners(): Listener[] | undefined {
  if (!existsSync('/proc/net/tcp')) return undefined;
  const out: Listener[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').trim().split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f[3] !== '0A') continue; // LISTEN
      const [addr, port] = f[1]!.split(':') as [string, string];
      out.push({ address: decode(addr), port: parseInt(port, 16), inode: f[9]! });
    }
  }
  return out;
}

export const isLoopback = (address: string) => /^127\./.test(address) || address === '::1' || /^::ffff:127\./.test(address);

/** The socket inodes the processes `pids` hold (Linux). */
export function socketsOf(pids: number[]): Set<string> {
  const inodes = new Set<string>();
  for (const pid of pids) {
    let fds: string[] = [];
    try { fds = readdirSync(`/proc/${pid}/fd`); } catch { continue; }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m) inodes.add(m[1]!);
      } catch { /* closed meanwhile */ }
    }
  }
  return inodes;
}

/** `pid` and every process below it (Linux). */
export function processTree(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command may hold spaces and parentheses: the fields after its last ')' are fixed.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch { /* gone meanwhile */ }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  return tree;
}

/** Whether a connection to `port` on one of the machine's non-loopback addresses is accepted (its address, if so). */
async function acceptedOutside(port: number): Promise<{ tried: number; accepted: string[] }> {
  const addresses = Object.values(networkInterfaces()).flat().filter((a) => a && !a.internal).map((a) => a!.address);
  const accepted: string[] = [];
  for (const host of addresses) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect({ host, port, timeout: 2000 });
      socket.once('connect', () => { socket.destroy(); resolve(true); });
      socket.once('timeout', () => { socket.destroy(); resolve(false); });
      socket.once('error', () => resolve(false));
    });
    if (ok) accepted.push(host);
  }
  return { tried: addresses.length, accepted };
}

/**
 * The addresses `port` listens on, each with whether it is loopback; where the kernel's
 * tables cannot be read, whether the port accepts connections on the machine's other addresses.
 */
export async function bindingOf(port: number): Promise<{ listening: string[]; outside: string[] }> {
  const all = listeners();
  if (all) return { listening: all.filter((l) => l.port === port).map((l) => l.address), outside: [] };
  const { tried, accepted } = await acceptedOutside(port);
  if (!tried) throw new Error('this machine has neither /proc/net/tcp nor a non-loopback address: nothing to check the binding with');
  return { listening: ['(connect checks)'], outside: accepted };
}
