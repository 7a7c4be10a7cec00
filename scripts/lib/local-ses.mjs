// The local mail server of `npm start` and the tests: aws-ses-v2-local, an SES v2-compatible
// server (in-process, messages in memory), bound to 127.0.0.1 on a free port. The service sends
// to it with the very code that sends to SES (lib/mail/ses.ts, SES_ENDPOINT). `GET <url>/store`
// lists every message sent ({ emails: [{ messageId, from, destination: { to }, subject,
// body: { text, html }, at }] }); `POST <url>/clear-store` empties it.
import * as ses from 'aws-ses-v2-local';
import { freePort } from './local-dynamodb.mjs';

/** The package's server function, whichever way the CommonJS module was loaded. */
const startServer = (typeof ses.default === 'function' ? ses.default : ses.default?.default) ?? ses.default;

export async function startLocalSes({ port } = {}) {
  port ??= await freePort();
  const server = await startServer({ host: '127.0.0.1', port });
  const endpoint = `http://127.0.0.1:${port}`;
  let stopped;
  const stop = () => {
    stopped ??= new Promise((resolve) => {
      server.closeAllConnections?.();
      server.close(() => resolve());
    });
    return stopped;
  };
  return { endpoint, port, stop };
}
