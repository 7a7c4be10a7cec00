// The API Gateway Management API of the WebSocket API (contract section 20): a message to one
// connection (POST /@connections/{id}) and its closing (DELETE). Hand-signed with the DynamoDB
// client's signer (lib/aws/signed.ts), like the SSM and Lambda calls: no SDK client in the
// stream consumer's bundle.
//   AWS:        https://<api id>.execute-api.<region>.amazonaws.com/<stage> (WEBSOCKET_API_ENDPOINT;
//               IAM: execute-api:ManageConnections on that API alone)
//   npm start:  serverless-offline's WebSocket server, http://127.0.0.1:<PORT+1>
import { SendFailed, signedPost } from '../aws/signed';
import { dynamo } from '../db/client';
import { config } from '../config';

/** Read at the call, not at load: the functions that bundle this without sending keep none of it. */
export const gatewayEndpoint = () => process.env.WEBSOCKET_API_ENDPOINT ?? '';

/** What became of a send: delivered, or the connection is gone (410: forget it). */
export type Sent = 'sent' | 'gone';

async function call(method: 'POST' | 'DELETE', connectionId: string, body: string): Promise<number> {
  const base = gatewayEndpoint();
  if (!base) throw new Error('WEBSOCKET_API_ENDPOINT is not set');
  const url = new URL(`${base.replace(/\/$/, '')}/@connections/${encodeURIComponent(connectionId)}`);
  const { status } = await signedPost({
    service: 'execute-api', region: config.region, sdk: dynamo.config, method, url,
    headers: method === 'POST' ? { 'content-type': 'application/json' } : {}, body, timeoutMs: 3000,
  });
  return status;
}

/**
 * Sends one message to one connection. 410 (the status, whatever the body: serverless-offline
 * answers it empty) is a gone connection; any other failure is thrown, so the stream retries.
 */
export async function postToConnection(connectionId: string, message: unknown): Promise<Sent> {
  const status = await call('POST', connectionId, JSON.stringify(message));
  if (status === 410) return 'gone';
  if (status < 200 || status > 299) throw new Error(`postToConnection answered ${status}`);
  return 'sent';
}

/** Closes a connection; one already gone (410) is closed. */
export async function closeConnection(connectionId: string): Promise<void> {
  const status = await call('DELETE', connectionId, '');
  if (status !== 410 && (status < 200 || status > 299)) throw new Error(`deleteConnection answered ${status}`);
}

export { SendFailed };
