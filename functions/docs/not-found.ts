// The answer for a route the API does not have (the HTTP API's $default route): the
// contract's 404 envelope instead of API Gateway's own body. Whatever the path, query and
// body, the answer is the 404, not a complaint about them (catchAll: no parsing, no validation).
import { http } from '../../lib/http';
import { NotFound } from '../../lib/errors';

export const handler = http({ auth: false, catchAll: true }, async () => {
  throw new NotFound('route');
});
