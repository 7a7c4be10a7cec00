// A thin typed client of the Aperture API for app teams: openapi-fetch over the types that
// `npm run openapi` generates from docs/openapi.json (./schema.d.ts). Every path, parameter,
// body and answer is typed from the document, so a call the API would refuse as malformed
// mostly does not compile, and an answer is typed by its status.
//
//   const api = apertureClient({ baseUrl: 'http://localhost:3000', token });
//   const { data, error } = await api.POST('/posts/create', { body: { image: [url], caption: 'Hi' } });
//
// `data` is the success answer, `error` the error envelope ({ success: false, message, code,
// details? }); exactly one of them is set.
import createClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './schema';

export type { components, operations, paths };
export type ApiError = components['schemas']['Error'];
export type ApertureClient = Client<paths>;

export interface ApertureClientOptions extends ClientOptions {
  /** The API's base URL: the stage's HTTP API URL, or http://localhost:3000 under `npm start`. */
  baseUrl: string;
  /** A bearer token (from /auth/register or /auth/login), or a function that returns the current one. */
  token?: string | (() => string | undefined);
  /** Sent as X-Trace-Id with every request, to read the requests back with GET /logs/trace/{traceId}. */
  traceId?: string;
}

export function apertureClient(options: ApertureClientOptions): ApertureClient {
  const { token, traceId, ...rest } = options;
  const client = createClient<paths>(rest);
  const auth: Middleware = {
    onRequest({ request }) {
      const current = typeof token === 'function' ? token() : token;
      if (current && !request.headers.has('Authorization')) request.headers.set('Authorization', `Bearer ${current}`);
      if (traceId && !request.headers.has('X-Trace-Id')) request.headers.set('X-Trace-Id', traceId);
      return request;
    },
  };
  client.use(auth);
  return client;
}
