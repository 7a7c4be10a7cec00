// Cold starts over TLS, as deployed (`npm run bench -- --init-tls`). In AWS every function
// reaches DynamoDB over https; locally DynamoDB Local speaks http only. That difference is not
// neutral for a cold start:
// - over http, the SDK's NodeHttpHandler loads node:http with a dynamic import() on its first
//   request, and Node's ES module facade for the builtin reads every export, including http's
//   lazy WebSocket getters, which load undici: about 23 ms of the baseline's 58 ms first
//   answer, measured (docs/PERFORMANCE.md, "What a local cold start has that AWS's has not");
//   over https the handler was required with the bundle and the SDK loads no undici (a
//   deployed function that checks a token loads it anyway, with the fetch of its JWT keys
//   from SSM, which the local stage does not send);
// - over https each new connection pays a TLS handshake, which http does not.
// So the cold-start processes can reach DynamoDB Local through a TLS proxy on loopback: a
// certificate made for the run with openssl (trusted through NODE_EXTRA_CA_CERTS, as AWS's
// are through Node's own CA list) and a child process that pipes each TLS connection to
// DynamoDB Local. A child process, because the cold starts run with execFileSync, which
// blocks this process's event loop.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:tls';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';

/** A key and a self-signed certificate for 127.0.0.1, valid one day, in `dir`. */
export function makeCertificate(dir) {
  mkdirSync(dir, { recursive: true });
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert], { stdio: 'pipe' });
  } catch (err) {
    throw new Error(`--init-tls needs the openssl command to make its certificate: ${err.message}`);
  }
  return { key, cert };
}

/**
 * Starts the proxy in a child process: TLS on a free loopback port, each connection piped to
 * `targetPort`. Resolves to { endpoint: 'https://127.0.0.1:<port>', pid, stop() }.
 */
export function startTlsProxy({ key, cert }, targetPort, { startMs = 10_000 } = {}) {
  // Its stdin is a pipe from this process: when this process ends, however it ends, the pipe
  // closes and the proxy exits (a signal that kills the benchmark runs no finally block).
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), key, cert, String(targetPort)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const stop = () => { child.stdin.end(); child.kill(); };
  return new Promise((resolve, reject) => {
    const fail = (err) => { clearTimeout(timer); stop(); reject(err); };
    const timer = setTimeout(() => fail(new Error(`the TLS proxy did not listen within ${startMs} ms`)), startMs);
    let out = '';
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`the TLS proxy exited (${code}) before listening`)));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const port = /^\{"port":(\d+)\}$/m.exec(out)?.[1];
      if (!port) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({ endpoint: `https://127.0.0.1:${port}`, pid: child.pid, stop });
    });
  });
}

// As the child process: node tls.mjs <key> <cert> <targetPort>
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [key, cert, target] = process.argv.slice(2);
  // No Nagle on either side (noDelay). Without it, a request the client writes in two pieces
  // (the head, then the body) reaches DynamoDB Local's socket as two segments, and the second
  // waits for the ACK of the first, which the server delays by up to 40 ms: every new
  // connection's first request took about 45 ms where it takes about 5, a stall that AWS's
  // endpoint does not have (measured: the baseline's first answer 67 ms with it, 26 ms
  // without; docs/PERFORMANCE.md, "The TLS proxy's stall").
  const server = createServer({ key: readFileSync(key), cert: readFileSync(cert), noDelay: true }, (tlsSocket) => {
    const upstream = connect({ port: Number(target), host: '127.0.0.1', noDelay: true });
    tlsSocket.pipe(upstream).pipe(tlsSocket);
    const end = () => { tlsSocket.destroy(); upstream.destroy(); };
    tlsSocket.on('error', end);
    upstream.on('error', end);
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
  // The benchmark holds this pipe open for as long as it runs (startTlsProxy).
  process.stdin.on('close', () => process.exit(0));
  process.stdin.resume();
}
