// Path, query and body validated against the endpoint's zod schemas (strict objects),
// all three at once so that `details` names every bad field in one answer.
import * as z from 'zod/mini';
import { ValidationError, type ErrorDetail } from '../errors';
import { toDetails } from './issues';
import { state, type Middleware } from './state';

export interface RouteSchemas<P extends z.ZodMiniType, Q extends z.ZodMiniType, B extends z.ZodMiniType> {
  params?: P;
  query?: Q;
  body?: B;
}

const EMPTY = z.strictObject({});

export function validation<P extends z.ZodMiniType, Q extends z.ZodMiniType, B extends z.ZodMiniType>(
  spec: RouteSchemas<P, Q, B>,
): Middleware {
  return {
    before: (request) => {
      const s = state(request);
      if (s.traceProblems.length) throw new ValidationError(s.traceProblems, 'A trace header is malformed.');
      const details: ErrorDetail[] = [];
      const check = (schema: z.ZodMiniType, input: unknown, where: string) => {
        // The input in each issue tells a wrong type ("must be a string") from a missing field ("is required").
        const r = z.safeParse(schema, input, { reportInput: true });
        if (!r.success) details.push(...toDetails(r.error.issues, where));
        return r.data;
      };
      const { event } = request;
      s.params = check(spec.params ?? EMPTY, event.pathParameters ?? {}, 'path');
      s.query = check(spec.query ?? EMPTY, event.queryStringParameters ?? {}, 'query');
      const body = event.body as unknown;
      if (spec.body) {
        if (body === undefined) details.push({ path: 'body', message: 'is required: send a JSON object' });
        else if (body === null || typeof body !== 'object' || Array.isArray(body)) details.push({ path: 'body', message: 'must be a JSON object' });
        else s.body = check(spec.body, body, 'body');
      } else if (body !== undefined) {
        check(EMPTY, body, 'body');
      }
      if (details.length) throw new ValidationError(details);
    },
  };
}
