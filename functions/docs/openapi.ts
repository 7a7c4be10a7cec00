// The OpenAPI document, public. It is generated at build time (`npm run openapi`, from the
// handlers' own schemas) and embedded here, so this function never loads the handlers.
// Its `servers` entry names the origin the document was fetched from (the stage's URL,
// or the local port `npm start` really listens on), so a client or the /docs page built
// from it calls the API that served it.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { http } from '../../lib/http';
import document from '../../docs/openapi.json';

const HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$/;

/** The origin of the request, or undefined when the headers do not name a plausible one. */
export function originOf(event: APIGatewayProxyEventV2): string | undefined {
  const host = event.headers?.host ?? event.requestContext?.domainName;
  if (!host || !HOST.test(host)) return undefined;
  const forwarded = event.headers?.['x-forwarded-proto'];
  const proto = forwarded === 'http' || forwarded === 'https' ? forwarded : process.env.IS_OFFLINE ? 'http' : 'https';
  return `${proto}://${host}`;
}

export const handler = http({ auth: false }, async ({ event }) => {
  const origin = originOf(event);
  const body = origin
    ? { ...document, servers: [{ url: origin, description: 'the server that answered this document' }] }
    : document;
  return {
    body: body as Record<string, unknown>,
    headers: { 'Cache-Control': 'public, max-age=300' },
    raw: true,
  };
});
