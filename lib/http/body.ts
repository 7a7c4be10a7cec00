// Request bodies: 413 over 100 KiB, 415 without a JSON content type, 400 INVALID_JSON
// when unparsable (middy's parser, which also refuses __proto__ and constructor keys).
// A request without a body passes through with body undefined. Any JSON value is a body:
// `false`, `0`, `null` and `"x"` pass on parsed, and validation refuses what is not an
// object with 400 VALIDATION_ERROR.
import httpJsonBodyParser from '@middy/http-json-body-parser';
import { InvalidJson, PayloadTooLarge, UnsupportedMediaType } from '../errors';
import { state, type Middleware, type MiddyRequest } from './state';

export const MAX_BODY_BYTES = 100 * 1024;

// The contract's media type exactly (any case, parameters allowed): middy's own check also
// takes every `application/*+json` type, which the contract does not, and refuses a space
// before the parameters, which HTTP allows.
const APPLICATION_JSON = /^\s*application\/json\s*(;|$)/i;

const declaredLength = (request: MiddyRequest): number | undefined => {
  const value = request.event.headers?.['content-length'];
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
};

/**
 * The body when the platform handed it over already parsed, else undefined. API Gateway
 * always sends the raw text, but serverless-offline parses `application/json` bodies and
 * passes on the value when it is falsy (`false`, `0`, `null`) or a string (`"x"` arrives
 * as `x`), and a direct invocation may carry any value.
 */
function handedParsed(request: MiddyRequest): { value: unknown } | undefined {
  const { body, isBase64Encoded } = request.event as { body?: unknown; isBase64Encoded?: boolean };
  const length = declaredLength(request);
  // JSON null: serverless-offline's only trace of it is the length the client declared.
  if (body === null) return length ? { value: null } : undefined;
  if (body !== undefined && typeof body !== 'string') return { value: body };
  const bytes = typeof body == 'string' && !isBase64Encoded && length! >= 0 ? Buffer.byteLength(body) - length! : 0;
  // Longer than the bytes sent: the platform replaced bytes that were not UTF-8 (each with
  // U+FFFD, 3 bytes), so what was sent is not JSON (contract: JSON in UTF-8).
  if (bytes > 0) throw new InvalidJson();
  // A JSON string that serverless-offline unwrapped: shorter than the bytes sent (its quotes are gone).
  if (bytes < 0 && process.env.IS_OFFLINE) return { value: body };
  return undefined;
}

export function bodyParser(): Middleware {
  // The media type is checked here (APPLICATION_JSON), so middy's own check is off.
  const parse = httpJsonBodyParser({ disableContentTypeCheck: true }).before!;
  const mediaType = (request: MiddyRequest) => {
    if (!APPLICATION_JSON.test(request.event.headers?.['content-type'] ?? '')) throw new UnsupportedMediaType();
  };
  return {
    before: async (request) => {
      const parsed = handedParsed(request);
      if (parsed) {
        const bytes = declaredLength(request) ?? Buffer.byteLength(JSON.stringify(parsed.value) ?? '');
        if (bytes > MAX_BODY_BYTES) throw new PayloadTooLarge(MAX_BODY_BYTES);
        mediaType(request);
        state(request).rawBody = (request.event as { body?: unknown }).body = parsed.value;
        return;
      }
      const { body, isBase64Encoded } = request.event;
      if (body === undefined || body === null || body === '') {
        request.event.body = undefined;
        return;
      }
      const bytes = Buffer.byteLength(body, isBase64Encoded ? 'base64' : 'utf8');
      if (bytes > MAX_BODY_BYTES) throw new PayloadTooLarge(MAX_BODY_BYTES);
      mediaType(request);
      // middy's parser reads the raw header names; the normalizer already lower-cased them.
      await parse(request);
      state(request).rawBody = request.event.body;
    },
  };
}
