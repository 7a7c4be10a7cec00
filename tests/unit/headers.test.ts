// The header-name middleware of the stack (lib/http/headers.ts) against
// @middy/http-header-normalizer with its defaults, which it replaced to keep 1.3 KB out of
// every function bundle: for any event, both leave the same headers and multiValueHeaders
// (same names, same values, same winner when two names lower-case alike, no prototype).
import fc from 'fast-check';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { headerNames } from '../../lib/http/headers';
import type { MiddyRequest } from '../../lib/http/state';

type Event = Partial<APIGatewayProxyEventV2> & { multiValueHeaders?: Record<string, string[]> };

async function run(before: (r: MiddyRequest) => unknown, event: Event): Promise<Event> {
  const request = { event: structuredClone(event), context: {}, response: undefined, error: undefined, internal: {} } as unknown as MiddyRequest;
  await before(request);
  return request.event as Event;
}

/** Names and values as a list, in order, and whether the object has a prototype: what toEqual alone would not tell. */
const shape = (h: Record<string, unknown> | undefined) => h && { entries: Object.entries(h), proto: Object.getPrototypeOf(h) };

async function same(event: Event) {
  const ours = await run(headerNames().before!, event);
  const middy = await run(httpHeaderNormalizer().before!, event);
  expect(shape(ours.headers)).toEqual(shape(middy.headers));
  expect(shape(ours.multiValueHeaders)).toEqual(shape(middy.multiValueHeaders));
  expect(ours).toEqual(middy);
}

// Names that collide once lower-cased, the ones middy's canonical table knows, odd characters.
const name = fc.oneof(
  fc.constantFrom('Authorization', 'authorization', 'AUTHORIZATION', 'Content-Type', 'content-type', 'X-Trace-Id', 'x-trace-id',
    'Idempotency-Key', 'ETag', 'DNT', 'WWW-Authenticate', 'TE', 'traceparent', 'İ', 'ß', 'K', '__proto__', 'constructor'),
  fc.string({ maxLength: 8 }),
);
const headers = fc.dictionary(name, fc.string({ maxLength: 6 }), { maxKeys: 8 });

it('lower-cases header names exactly as @middy/http-header-normalizer did', async () => {
  await fc.assert(fc.asyncProperty(headers, fc.option(fc.dictionary(name, fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }), { maxKeys: 5 })), async (h, multi) => {
    await same({ headers: h, ...(multi ? { multiValueHeaders: multi } : {}) });
  }), { numRuns: 2000 });
});

it.each([
  ['no headers at all', {}],
  ['null headers', { headers: null as unknown as Record<string, string> }],
  ['two spellings of one name: the later one wins', { headers: { 'X-Trace-Id': 'first', 'x-trace-id': 'second', 'X-TRACE-ID': 'third' } }],
])('%s: as middy', async (_, event: Event) => {
  await same(event);
});

it('answers lower-cased names with their values', async () => {
  const event = await run(headerNames().before!, { headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json' } });
  expect({ ...event.headers }).toEqual({ authorization: 'Bearer t', 'content-type': 'application/json' });
});
