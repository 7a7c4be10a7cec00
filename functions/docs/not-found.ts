// The answer for a route the API does not have (the HTTP API's $default route): the
// contract's 404 envelope instead of API Gateway's own body. Any path and query are let
// through validation so that the answer is the 404, not a complaint about them.
import * as z from 'zod/mini';
import { http } from '../../lib/http';
import { NotFound } from '../../lib/errors';

export const params = z.looseObject({});
export const query = z.looseObject({});

export const handler = http({ auth: false, params, query, summary: 'Any route the API does not have' }, async () => {
  throw new NotFound('route');
});
