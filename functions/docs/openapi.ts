// The OpenAPI document, public. It is generated at build time (`npm run openapi`, from the
// handlers' own schemas) and embedded here, so this function never loads the handlers.
import { http } from '../../lib/http';
import document from '../../docs/openapi.json';

export const handler = http({ auth: false }, async () => ({
  body: document as Record<string, unknown>,
  headers: { 'Cache-Control': 'public, max-age=300' },
  raw: true,
}));
