// The S3 client's transport (lib/media/s3.ts): signed requests sent with the DynamoDB
// client's keep-alive handler. A connection S3 closed while a function was frozen fails the
// first request sent on it; every S3 call of ours is idempotent, so it is sent once more on a
// new connection. A stand-in server plays that S3: it answers a connection's first request
// and drops the connection on the next one, as a socket closed under a frozen function does.
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

let server: Server;
const connections = new Set<Socket>();
let requests = 0;
let silent = false;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    if (silent) return; // never answers
    const socket = req.socket as Socket & { served?: number };
    socket.served = (socket.served ?? 0) + 1;
    if (socket.served > 1) { socket.destroy(); return; }
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  server.on('connection', (s) => connections.add(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
});
afterAll(() => new Promise((r) => { server.closeAllConnections(); server.close(r); }));

// lib/media/s3.ts reads its endpoint when loaded: loaded here against the stand-in.
function s3(): typeof import('../../lib/media/s3') {
  const saved = process.env.S3_ENDPOINT;
  process.env.S3_ENDPOINT = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    let mod: typeof import('../../lib/media/s3') | undefined;
    jest.isolateModules(() => { mod = require('../../lib/media/s3'); });
    return mod!;
  } finally {
    // Assigning undefined would store the string "undefined".
    if (saved === undefined) delete process.env.S3_ENDPOINT;
    else process.env.S3_ENDPOINT = saved;
  }
}

beforeEach(() => { requests = 0; connections.clear(); silent = false; });

it('sends a request that a kept-alive connection drops once more, on a new connection', async () => {
  const { deleteObject } = s3();
  await deleteObject('media/a/1.webp');
  // Kept alive: the second call goes on the same connection, which the server drops.
  await deleteObject('media/a/2.webp');
  expect(requests).toBe(3);
  expect(connections.size).toBe(2);
});

it('does not send again a request that timed out', async () => {
  silent = true;
  const { putObjectTagging, S3_TIMEOUT } = s3();
  S3_TIMEOUT.ms = 200;
  expect(await putObjectTagging('media/b/1.webp', { a: 'b' }).catch((e: Error) => e)).toEqual(expect.objectContaining({ name: 'AbortError' }));
  expect(requests).toBe(1);
});
