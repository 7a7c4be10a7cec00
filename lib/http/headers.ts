// Header names lower-cased before anything reads them: API Gateway's HTTP API sends them so,
// a direct invocation or serverless-offline may not. This is what @middy/http-header-normalizer
// did with its defaults (the middleware this one replaced): a fresh object without prototype
// for `headers` and for `multiValueHeaders`, each name lower-cased, a later name winning over
// an earlier one that lower-cases the same. Its canonical-case table, defaults and option
// schema were 1.3 KB of every function bundle that this stack never used (docs/OPERATIONS.md,
// "Bundle budget"); tests/unit/headers.test.ts holds the two side by side.
import type { Middleware } from './state';

function lowerCased<T>(headers: Record<string, T>): Record<string, T> {
  const out = Object.create(null) as Record<string, T>;
  for (const key in headers) out[key.toLowerCase()] = headers[key]!;
  return out;
}

export const headerNames = (): Middleware => ({
  before: (request) => {
    // Payload v2 events carry no multiValueHeaders; a hand-made event may.
    const event = request.event as typeof request.event & { multiValueHeaders?: Record<string, string[] | undefined> };
    if (event.headers) event.headers = lowerCased(event.headers);
    if (event.multiValueHeaders) event.multiValueHeaders = lowerCased(event.multiValueHeaders);
  },
});
