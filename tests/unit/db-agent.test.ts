// The DynamoDB client's https agent (lib/db/agent.ts): parallel connections share one TLS
// context instead of one each, and still speak TLS to the server they reach.
import { readFileSync, mkdtempSync } from 'node:fs';
import { createServer, request, Agent, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SharedContextAgent } from '../../lib/db/agent';

// The benchmark's own certificate maker (openssl, which CI installs for it).
const { makeCertificate } = require('../../scripts/bench/tls.mjs');
// The module object itself, which Node's own tls.connect calls createSecureContext on (an
// `import * as` namespace would be a copy that cannot be spied on).
const tls: typeof import('node:tls') = require('node:tls');

let server: Server;
let port: number;
const sockets = new Set<unknown>();

beforeAll(async () => {
  const cert = makeCertificate(join(mkdtempSync(join(tmpdir(), 'aperture-agent-')), 'tls'));
  server = createServer({ key: readFileSync(cert.key), cert: readFileSync(cert.cert) }, (req, res) => {
    sockets.add(req.socket);
    // Answers only once three requests are open: the three must be on three connections.
    setTimeout(() => res.end((req.socket as TLSSocket).getProtocol() ?? ''), 50);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((done) => server.close(done));
});

beforeEach(() => sockets.clear());
afterEach(() => jest.restoreAllMocks());

/** Three requests at once through `agent`; resolves to their bodies. */
async function threeAtOnce(agent: Agent): Promise<string[]> {
  const one = () => new Promise<string>((done, fail) => {
    // The certificate is the test's own, made above: not in Node's trust store.
    const req = request({ host: '127.0.0.1', port, path: '/', agent, rejectUnauthorized: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => { body += c; });
      res.on('end', () => done(body));
    });
    req.on('error', fail);
    req.end();
  });
  try {
    return await Promise.all([one(), one(), one()]);
  } finally {
    agent.destroy();
  }
}

describe('SharedContextAgent', () => {
  it('makes one TLS context for all its connections, where Node makes one per connection', async () => {
    const made = jest.spyOn(tls, 'createSecureContext');
    const plain = await threeAtOnce(new Agent({ keepAlive: true }));
    expect(sockets.size).toBe(3);
    expect(made).toHaveBeenCalledTimes(3);

    made.mockClear();
    sockets.clear();
    const shared = await threeAtOnce(new SharedContextAgent({ keepAlive: true }));
    expect(sockets.size).toBe(3);
    expect(made).toHaveBeenCalledTimes(1);
    expect(shared).toEqual(plain);
    expect(shared[0]).toMatch(/^TLSv1\.[23]$/);
  });

  it('makes its context on the first connection, not when it is built', () => {
    const made = jest.spyOn(tls, 'createSecureContext');
    new SharedContextAgent({ keepAlive: true }).destroy();
    expect(made).not.toHaveBeenCalled();
  });

  it('still checks the certificate: one outside the trust store is refused', async () => {
    const agent = new SharedContextAgent({ keepAlive: true });
    const refused = new Promise<Error>((done) => {
      const req = request({ host: '127.0.0.1', port, path: '/', agent }, () => done(new Error('answered')));
      req.on('error', done);
      req.end();
    });
    try {
      expect((await refused).message).toMatch(/self[- ]signed certificate/);
    } finally {
      agent.destroy();
    }
  });
});
