// $disconnect of the WebSocket API: the connection is forgotten (its items, found by its id).
import { forgetConnectionById } from '../../lib/live/connections';

export const handler = async (event: { requestContext: { connectionId: string } }) => {
  await forgetConnectionById(event.requestContext.connectionId);
  return { statusCode: 200 };
};
