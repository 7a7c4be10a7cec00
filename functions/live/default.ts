// $default of the WebSocket API: the API takes no messages from clients (everything it sends
// comes from the change stream); whatever arrives is read by nobody and answered with nothing.
export const handler = async () => ({ statusCode: 200 });
