// A stand-in for the WebSocket API's Management API on loopback (as tests/support/ssm-server.ts
// stands in for SSM): POST /@connections/{id} records the message for an open connection and
// answers 410 for any other, DELETE closes one. Integration tests open "connections" by writing
// them through lib/live/connections.ts and read what each received.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestGateway {
  url: string;
  open: Set<string>;
  received: Map<string, { type: string; data: Record<string, any> }[]>;
  closed: string[];
  posts: number;
  stop(): Promise<void>;
}

export async function startTestGateway(): Promise<TestGateway> {
  const gw: TestGateway = { url: '', open: new Set(), received: new Map(), closed: [], posts: 0, stop: async () => undefined };
  const server: Server = createServer((req, res) => {
    const m = /^\/@connections\/([^/]+)$/.exec(req.url ?? '');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (!m || !String(req.headers.authorization ?? '').startsWith('AWS4-HMAC-SHA256')) { res.writeHead(403).end(); return; }
      const id = decodeURIComponent(m[1]!);
      if (!gw.open.has(id)) { res.writeHead(410).end(); return; }
      if (req.method === 'POST') {
        gw.posts++;
        gw.received.set(id, [...(gw.received.get(id) ?? []), JSON.parse(Buffer.concat(chunks).toString())]);
        res.writeHead(200).end();
      } else if (req.method === 'DELETE') {
        gw.open.delete(id);
        gw.closed.push(id);
        res.writeHead(204).end();
      } else res.writeHead(405).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  gw.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  gw.stop = () => new Promise((r) => server.close(() => r()));
  return gw;
}
