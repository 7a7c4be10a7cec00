// Request bodies: 413 over 100 KiB, 415 without a JSON content type, 400 INVALID_JSON
// when unparsable (middy's parser, which also refuses __proto__ and constructor keys).
// A request without a body passes through with body undefined.
import httpJsonBodyParser from '@middy/http-json-body-parser';
import { PayloadTooLarge, UnsupportedMediaType } from '../errors';
import { state, type Middleware } from './state';

export const MAX_BODY_BYTES = 100 * 1024;

// The contract's media type exactly (any case, parameters allowed): middy's own check also
// takes every `application/*+json` type, which the contract does not, and refuses a space
// before the parameters, which HTTP allows.
const APPLICATION_JSON = /^\s*application\/json\s*(;|$)/i;

export function bodyParser(): Middleware {
  // The media type is checked here (APPLICATION_JSON), so middy's own check is off.
  const parse = httpJsonBodyParser({ disableContentTypeCheck: true }).before!;
  return {
    before: async (request) => {
      const { body, isBase64Encoded } = request.event;
      if (body === undefined || body === null || body === '') {
        request.event.body = undefined;
        return;
      }
      const bytes = Buffer.byteLength(body, isBase64Encoded ? 'base64' : 'utf8');
      if (bytes > MAX_BODY_BYTES) throw new PayloadTooLarge(MAX_BODY_BYTES);
      if (!APPLICATION_JSON.test(request.event.headers?.['content-type'] ?? '')) throw new UnsupportedMediaType();
      // middy's parser reads the raw header names; the normalizer already lower-cased them.
      await parse(request);
      state(request).rawBody = request.event.body;
    },
  };
}
