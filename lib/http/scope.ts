// The scope a route needs (RouteSpec.scope): 403 unless the caller's token carries it. The
// stack runs it right after authentication and before the request is parsed or validated.
import { Forbidden } from '../errors';
import { state, type Middleware } from './state';

export const requireScope = (scope: string): Middleware => ({
  before: (request) => {
    if (!state(request).caller?.scopes.has(scope)) throw new Forbidden(`This needs a token with the scope "${scope}".`);
  },
});
