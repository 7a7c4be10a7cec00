// $connect of the WebSocket API (contract section 20): `?token=<access token>` is checked as every
// authenticated HTTP request checks it (lib/auth/tokens.ts, then the session read: a refresh
// token, an ended session, a deleted or suspended account are a 401 at the handshake). The
// connection is written, then the session is read again: a session ending meanwhile either
// refuses it here or finds it in its own closing (lib/live/reactions.ts).
import type { APIGatewayProxyResultV2 } from 'aws-lambda';
import { verifyToken } from '../../lib/auth/tokens';
import { sessionUser } from '../../lib/auth/sessions';
import { Unauthorized } from '../../lib/errors';
import { forgetConnection, putConnection } from '../../lib/live/connections';

interface ConnectEvent {
  queryStringParameters?: Record<string, string | undefined> | null;
  requestContext: { connectionId: string };
}

export const handler = async (event: ConnectEvent): Promise<APIGatewayProxyResultV2> => {
  const connectionId = event.requestContext.connectionId;
  try {
    const claims = await verifyToken(event.queryStringParameters?.token ?? '');
    await sessionUser(claims);
    await putConnection(claims.userId, claims.sessionId, connectionId);
    try {
      await sessionUser(claims);
    } catch (err) {
      await forgetConnection(claims.userId, connectionId);
      throw err;
    }
    return { statusCode: 200 };
  } catch (err) {
    if (err instanceof Unauthorized) return { statusCode: 401 };
    throw err;
  }
};
